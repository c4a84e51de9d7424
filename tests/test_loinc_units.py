import pytest

from loinc.units import normalize_unit, property_kind, unit_kind
from parser.units import canonical_unit


@pytest.mark.parametrize(
    ("unit", "kind"),
    [
        ("mg/dL", "mass_conc"), ("g/dl", "mass_conc"), ("µg/dL", "mass_conc"), ("ng/mL", "mass_conc"),
        ("mmol/L", "molar_conc"), ("µmol/L", "molar_conc"), ("mEq/L", "molar_conc"),
        ("x10^3/uL", "count_conc"), ("10*9/L", "count_conc"), ("/uL", "count_conc"),
        ("cells/uL", "count_conc"), ("mill/cumm", "count_conc"), ("cumm", "count_conc"),
        ("10³/µL", "count_conc"), ("lakh/cumm", "count_conc"),
        ("%", "fraction"), ("U/L", "units"), ("IU/L", "units"), ("µIU/mL", "units"),
        ("fL", "entitic_volume"), ("pg", "entitic_mass"), ("mm/hr", "velocity"), ("mm/1st hour", "velocity"), ("mm/1ª h", "velocity"), ("mm/1. Std.", "velocity"),
        ("mm/60 min", "velocity"), ("sec", "time"),
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


@pytest.mark.parametrize("unit", ["x E9/L", "mUI/ml", "IE/l", "mL/min/1,73 m²", "/cmm", "10³/µL", "mcg/dL"])
def test_loinc_keys_a_unit_as_the_parser_does(unit):
    assert normalize_unit(unit) == canonical_unit(unit)


@pytest.mark.parametrize(("unit", "kind"), [
    ("x E9/L", "count_conc"), ("x E12/L", "count_conc"), ("IE/l", "units"), ("mIE/ml", "units"),
    ("mL/min/1,73 m²", "volume_rate"), ("ml/min/{1.73_m2}", "volume_rate"), ("mL/min/1.73 sq m", "volume_rate"),
    ("x10E3/mcL", "count_conc"), ("mcmol/L", "molar_conc"),  # "mc" for micro, as US labs print it
])
def test_unit_kind_of_merged_spellings(unit, kind):
    assert unit_kind(unit) == kind


def test_property_kinds():
    assert property_kind("Mass/volume") == "mass_conc"
    assert property_kind("Moles/volume") == "molar_conc"
    assert property_kind("Number fraction") == "fraction"
    assert property_kind("Presence") == "ordinal"
    assert property_kind("nonsense") is None


@pytest.mark.parametrize(("old_key", "printed"), [
    ("x10^3/ul", "x10^3/µL"), ("ml/min/1.73 m2", "mL/min/1,73 m²"), ("/cumm", "/cumm"), ("miu/ml", "mUI/mL"),
])
def test_a_key_stored_by_an_earlier_normalisation_is_rekeyed_by_normalizing_it_again(old_key, printed):
    # Team aliases stored as keys only can be put under today's key: the old key is a spelling too.
    assert normalize_unit(old_key) == normalize_unit(printed) == normalize_unit(normalize_unit(printed))


def test_a_count_per_microscope_field_in_five_languages_is_per_area():
    from loinc.units import COUNT_AREA, unit_kind

    for unit in ("/hpf", "/campo", "/champ", "/Gesichtsfeld", "/GF", "per campo", "/cga", "/field"):
        assert unit_kind(unit) == COUNT_AREA, unit
    assert unit_kind("/µL") != COUNT_AREA


def test_a_sediment_count_per_field_gets_the_per_area_code():
    from loinc.matcher import get_matcher

    for name, unit, code in (("Leucocitos", "/campo", "5821-4"), ("Hematíes", "/campo", "13945-1"),
                             ("Erythrozyten", "/Gesichtsfeld", "13945-1")):
        assert get_matcher().match(name, unit, specimen="urine").matches[0][0].code == code, name


@pytest.mark.parametrize("unit", ["% of total Hgb", "% of total Hb", "%Hb", "% of WBC", "% Hb"])
def test_a_percentage_that_names_its_whole_is_a_fraction(unit):
    assert unit_kind(unit) == "fraction"


def test_a_percentile_is_no_fraction():
    assert unit_kind("%ile") is None
