"""The `labreport` command: a thin layer over parser/, loinc/, review/ and service/."""
