"""Log format of the service processes. Log lines carry job and team ids, never report content."""

from __future__ import annotations

import logging


def configure_logging(level: str = "info") -> None:
    logging.basicConfig(
        level=level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        force=True,  # the serve process is ours: replace whatever an import configured
    )
    # Migration chatter at every start says nothing an operator needs.
    logging.getLogger("alembic").setLevel(logging.WARNING)
