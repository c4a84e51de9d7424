"""Bytes in, a structured lab report out. Knows nothing of loinc/, review/ or service/."""
