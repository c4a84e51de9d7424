"""measurement_kind reads the European words for a calculated or estimated result."""
import pytest

from parser.panels import measurement_kind


@pytest.mark.parametrize("name", [
    "Cholestérol LDL calculé", "LDL-Cholesterin berechnet", "Colesterolo LDL calcolato",
    "Colesterol LDL calculado", "DFG estimé (CKD-EPI)", "eGFR geschätzt", "VFG stimata",
    "Filtrado glomerular estimado", "Clearance calculée"])
def test_european_calculated_words(name):
    assert measurement_kind(name, None) == "calculated"


@pytest.mark.parametrize("name", ["Calcium", "Calcémie", "Estradiol", "Cholestérol LDL"])
def test_lookalikes_stay_unknown(name):
    assert measurement_kind(name, None) == "unknown"
