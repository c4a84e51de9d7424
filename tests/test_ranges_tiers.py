"""Ranges printed as labelled tiers (sex, age, decision) and the patient's tier among them."""
import pytest

from parser.models import ResultMetadata
from parser.page import Document, Page, Word
from parser.patient_age import patient_age, printed_age
from parser.ranges import labelled_tiers, parse_range, reads_as_range


def _bounds(text, gender=None, age=None):
    r = parse_range(text, gender, decimal_comma="," in text, age=age)
    return None if r is None else (r.low, r.high)


@pytest.mark.parametrize("text, gender, bounds", [
    ("Male: 4.50 - 5.90 Female: 4.00 - 5.20", "female", (4.0, 5.2)),
    ("Male: 4.50 - 5.90 Female: 4.00 - 5.20", "male", (4.5, 5.9)),
    ("Uomini: 13,5 - 17,5 Donne: 12,0 - 15,5", "female", (12.0, 15.5)),
    ("Hommes : 62 - 106 Femmes : 44 - 80", "male", (62.0, 106.0)),
    ("Männer: 0,7 - 1,2 Frauen: 0,5 - 0,9", "female", (0.5, 0.9)),
    ("Male: 13-17 g/dL Female: 12-15 g/dL", "female", (12.0, 15.0)),  # a unit after each tier
    ("13.5 - 17.5 : Male 12.0 - 15.5 : Female", "female", (12.0, 15.5)),  # labels after bounds
])
def test_the_patients_sex_picks_the_tier(text, gender, bounds):
    assert _bounds(text, gender) == bounds


def test_sex_tiers_without_a_known_sex_give_no_range():
    assert _bounds("Male: 4.50 - 5.90 Female: 4.00 - 5.20") is None


@pytest.mark.parametrize("text, age, bounds", [
    ("18-59 y: 6 - 20 >=60 y: 8 - 23", 66, (8.0, 23.0)),
    ("18-59 y: 6 - 20 >=60 y: 8 - 23", 59, (6.0, 20.0)),
    ("<60 y: 38 - 126 >=60 y: 46 - 136", 42, (38.0, 126.0)),
    ("6 - 20 : 18-59 y 8 - 23 : >=60 y", 66, (8.0, 23.0)),
    ("18-59 ans : 40 - 130 60 ans et plus : 50 - 150 Enfants : 100 - 400", 71, (50.0, 150.0)),
    ("Adults: 0.5 - 1.2 Children: 0.3 - 0.7", 30, (0.5, 1.2)),
])
def test_the_patients_age_picks_the_tier(text, age, bounds):
    assert _bounds(text, age=age) == bounds


@pytest.mark.parametrize("text", [
    "18-59 y: 6 - 20 >=60 y: 8 - 23",
    "18-59 ans : 40 - 130 60 ans et plus : 50 - 150",
    "18-59 y: 6 - 20",  # one age tier: its label's numbers are no range
])
def test_age_tiers_without_a_known_age_give_no_range(text):
    assert _bounds(text) is None


def test_age_and_sex_together_pick_one_tier():
    text = "Male 18-49 y: 10 - 20 Male >=50 y: 12 - 25 Female: 8 - 18"
    assert _bounds(text, "male", 55) == (12.0, 25.0)
    assert _bounds(text, "female", 55) == (8.0, 18.0)


@pytest.mark.parametrize("text, bounds", [
    ("Fasting: 70 - 99 Random: 70 - 139", (70.0, 99.0)),
    ("Ayunas: 70 - 100 Postprandial: < 140", (70.0, 100.0)),
    ("Deficiency: <20 Insufficiency: 20-30 Sufficiency: 30-100", (30.0, 100.0)),
    ("Desirable: <200 Borderline: 200 - 239 High: >=240", (None, 200.0)),
    ("Deseable: < 200", (None, 200.0)),  # the normal tier alone
    ("desiderabile < 200", (None, 200.0)),
    ("hasta 40", (None, 40.0)),
    ("jusqu'à 35", (None, 35.0)),
])
def test_decision_tiers_give_the_normal_one(text, bounds):
    assert _bounds(text) == bounds


@pytest.mark.parametrize("text", [
    "Follicular: 2 - 10 Luteal: 1 - 5",  # labels the parser does not know: unsure
    "Pregnant: 5 - 10 Non pregnant: 1 - 3",
    "Frauen: 2,4 - 5,7 Schwangere: 2,0 - 5,0",  # two tiers may be hers
])
def test_unknown_tier_labels_give_no_range(text):
    assert _bounds(text, "female", 40) is None


def test_tier_cells_read_as_ranges_whoever_the_patient():
    assert reads_as_range("18-59 y: 6 - 20 >=60 y: 8 - 23")  # places a range column
    assert not reads_as_range("Glucose : fasting")


def test_tiers_need_every_part_to_read_as_label_and_bounds():
    assert labelled_tiers("Below 6.0% : Normal 6.0% - 6.5% : Prediabetic") is None
    assert labelled_tiers("3.5 - 5.0") is None
    assert len(labelled_tiers("M: 13-17 F: 12-15")) == 2


def _doc(text):
    words, x = [], 40.0
    for token in text.split():
        words.append(Word(token, x, 50, x + 6 * len(token), 60, 1.0, 10.0))
        x += 6 * len(token) + 3
    return Document("pdf", [Page(1, 600, 800, words, "text")])


def test_age_from_birth_and_sampling_dates_first():
    meta = ResultMetadata(dob="1958-04-19", date_collected="2024-09-12")
    assert patient_age(_doc("Age : 12 Years"), meta) == 66.0  # the dates win over a printed age
    meta = ResultMetadata(dob="1958-09-13", date_collected="2024-09-12")
    assert patient_age(_doc(""), meta) == 65.0  # the day before the birthday


@pytest.mark.parametrize("text, age", [
    ("NAME : MR. SANJAY RAO (42Y/M) LABCODE : 1201", 42.0),
    ("KACZMAREK, DOLORES 00482913 04/19/1958 / 66Y / F LK24", 66.0),
    ("Age / Sex : 45 Years / Male", 45.0),
    ("Âge : 71 ans", 71.0),
    ("Ref. 12 Y. Range", None),  # no age label, no sex beside it
    ("Age : 42 Years ... Age : 43 Years", None),  # two ages: unsure
])
def test_a_printed_age(text, age):
    assert printed_age(text) == age


@pytest.mark.parametrize("text, age, bounds", [
    (">or=18 years: 40-129", 75, (40.0, 129.0)),  # Mayo's one tier, the patient's
    (">=18 years: 40-129", 10, None),  # a child: the printed tier is not theirs
    ("18-59 y: 6 - 20", 30, (6.0, 20.0)),
])
def test_one_age_tier_printed_alone_is_the_range_of_a_patient_of_that_age(text, age, bounds):
    assert _bounds(text, age=age) == bounds
