import pytest

from loinc.units import normalize_unit, property_kind, unit_kind


@pytest.mark.parametrize(
    ("unit", "kind"),
    [
        ("mg/dL", "mass_conc"), ("g/dl", "mass_conc"), ("µg/dL", "mass_conc"), ("ng/mL", "mass_conc"),
        ("mmol/L", "molar_conc"), ("µmol/L", "molar_conc"), ("mEq/L", "molar_conc"),
        ("x10^3/uL", "count_conc"), ("10*9/L", "count_conc"), ("/uL", "count_conc"),
        ("cells/uL", "count_conc"), ("mill/cumm", "count_conc"), ("cumm", "count_conc"),
        ("10³/µL", "count_conc"), ("lakh/cumm", "count_conc"),
        ("%", "fraction"), ("U/L", "units"), ("IU/L", "units"), ("µIU/mL", "units"),
        ("fL", "entitic_volume"), ("pg", "entitic_mass"), ("mm/hr", "velocity"), ("sec", "time"),
        ("mL/min/1.73m2", "volume_rate"), ("/hpf", "count_area"), ("mmHg", "pressure"),
    ],
)
def test_unit_kind(unit, kind):
    assert unit_kind(unit) == kind


@pytest.mark.parametrize("unit", [None, "", "Normal", "qwerty"])
def test_unknown_units_have_no_kind(unit):
    assert unit_kind(unit) is None


def test_normalize_unit_folds_spelling_variants():
    assert normalize_unit(" µg / dL ") == normalize_unit("ug/dl") == "ug/dl"
    assert normalize_unit("x 10^3 / µL") == normalize_unit("x10^3/uL")


def test_property_kinds():
    assert property_kind("Mass/volume") == "mass_conc"
    assert property_kind("Moles/volume") == "molar_conc"
    assert property_kind("Number fraction") == "fraction"
    assert property_kind("Presence") == "ordinal"
    assert property_kind("nonsense") is None
