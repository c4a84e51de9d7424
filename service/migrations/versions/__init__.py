"""Migration revisions, applied in order by service.db.upgrade()."""
