"""The shipped LOINC table and the matcher that maps printed test names to LOINC codes."""
