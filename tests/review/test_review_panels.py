from parser.models import LabReportResult, LoincMatch, ReportData
from review import panels
from review.routing import route_report

CBC = {"WBC": "6690-2", "RBC": "789-8", "Hemoglobin": "718-7", "Hematocrit": "4544-3", "MCV": "787-2",
       "MCH": "785-6", "MCHC": "786-4", "Platelets": "777-3"}


def coded(name, code):
    return LabReportResult(test_name=name, value="1", loinc_matches=[
        LoincMatch(loinc_code=code, loinc_name=name, display_name=name, confidence_score=0.95)])


def test_a_blood_count_missing_one_member_is_suspect():
    rows = [coded(name, code) for name, code in CBC.items() if name != "Hematocrit"]
    reasons = panels.missing_members(ReportData(results=rows))
    assert reasons == ["blood count without its haematocrit (a row may have been dropped)"]
    assert any("haematocrit" in reason for reason in route_report(ReportData(results=rows)).reasons)


def test_a_whole_panel_or_a_small_part_of_one_says_nothing():
    whole = [coded(name, code) for name, code in CBC.items()]
    assert panels.missing_members(ReportData(results=whole)) == []
    part = [coded("Hemoglobin", "718-7"), coded("Hematocrit", "4544-3"), coded("Platelets", "777-3")]
    assert panels.missing_members(ReportData(results=part)) == []


def test_si_twins_and_method_siblings_count_as_the_member():
    rows = [coded(name, code) for name, code in CBC.items() if name != "Hematocrit"]
    rows.append(coded("PCV", "20570-8"))
    assert panels.missing_members(ReportData(results=rows)) == []


def test_a_urine_dipstick_missing_one_pad_is_suspect():
    pads = {"SG": "2965-2", "pH": "2756-5", "Protein": "20454-5", "Glucose": "2349-9", "Ketones": "33903-6",
            "Occult Blood": "5794-3", "Nitrite": "32710-6"}
    rows = [coded(name, code) for name, code in pads.items()]
    assert panels.missing_members(ReportData(results=rows)) == [
        "urine dipstick without its leukocyte esterase (a row may have been dropped)"]
    assert panels.missing_members(ReportData(results=rows + [coded("LE", "5799-2")])) == []


def test_a_differential_missing_one_cell_is_suspect_a_three_part_one_is_not():
    five = {"Neutrophils": "770-8", "Lymphocytes": "736-9", "Monocytes": "5905-5", "Eosinophils": "713-8",
            "Basophils": "706-2"}
    rows = [coded(name, code) for name, code in five.items() if name != "Monocytes"]
    assert panels.missing_members(ReportData(results=rows)) == [
        "differential without its monocytes % (a row may have been dropped)"]
    assert panels.missing_members(ReportData(results=rows + [coded("Mono", "26485-3")])) == []  # a method sibling
    three_part = [coded("Neutrophils", "770-8"), coded("Lymphocytes", "736-9")]
    assert panels.missing_members(ReportData(results=three_part)) == []


def test_a_member_counts_by_every_code_the_evidence_checks_know():
    # Haemoglobin in mmol/L (59260-0, European reports) is the blood count's haemoglobin too.
    rows = [coded(name, code) for name, code in CBC.items() if name != "Hemoglobin"]
    assert panels.missing_members(ReportData(results=rows + [coded("Hb", "59260-0")])) == []


def test_a_lipid_profile_without_its_total_cholesterol_is_suspect():
    hdl, ldl, trig = coded("HDL", "2085-9"), coded("LDL", "13457-7"), coded("Triglycerides", "2571-8")
    reasons = panels.missing_members(ReportData(results=[hdl, ldl, trig]))
    assert reasons == ["lipid profile without its total cholesterol (a row may have been dropped)"]
    # With its total cholesterol, or with only one companion, nothing is said.
    assert panels.missing_members(ReportData(results=[coded("Cholesterol", "2093-3"), hdl, trig])) == []
    assert panels.missing_members(ReportData(results=[hdl])) == []


def test_a_computed_row_without_a_row_it_is_computed_from_is_suspect():
    # MCH = Hb / RBC: printed without the red cell count, that row was dropped (a wrapped line, a lost table).
    rows = [coded("Hemoglobin", "718-7"), coded("MCH", "785-6"), coded("Platelets", "777-3")]
    assert panels.missing_parts(ReportData(results=rows)) == ["MCH without its red cells (a row may have been dropped)"]
    assert "MCH without its red cells (a row may have been dropped)" in route_report(ReportData(results=rows)).reasons
    assert panels.missing_parts(ReportData(results=rows + [coded("RBC", "789-8")])) == []


def test_egfr_without_creatinine_is_suspect_creatinine_alone_is_not():
    assert panels.missing_parts(ReportData(results=[coded("eGFR", "98979-8")])) == [
        "eGFR without its creatinine (a row may have been dropped)"]
    assert panels.missing_parts(ReportData(results=[coded("Creatinine", "2160-0")])) == []
    assert panels.missing_parts(ReportData(results=[coded("eGFR", "98979-8"), coded("Creat", "2160-0")])) == []


def test_a_differential_without_its_white_cell_count_is_suspect():
    shares = [coded("Neutrophils", "770-8"), coded("Lymphocytes", "736-9"), coded("Monocytes", "5905-5")]
    reason = "differential without its white cells (a row may have been dropped)"
    assert panels.missing_parts(ReportData(results=shares)) == [reason]
    assert panels.missing_parts(ReportData(results=shares + [coded("WBC", "6690-2")])) == []
    assert panels.missing_parts(ReportData(results=shares[:2])) == []  # two cells: too little to say
    counts = [coded("Neutrophils abs", "751-8"), coded("Lymphocytes abs", "731-0")]
    assert panels.missing_parts(ReportData(results=counts)) == [reason]  # said once, not per cell


def test_members_real_labs_often_leave_out_say_nothing_alone():
    no_mchc = [coded(name, code) for name, code in CBC.items() if name != "MCHC"]
    assert panels.missing_members(ReportData(results=no_mchc)) == []
    four = [coded("Neutrophils", "770-8"), coded("Lymphocytes", "736-9"), coded("Monocytes", "5905-5"),
            coded("Eosinophils", "713-8")]
    assert panels.missing_members(ReportData(results=four)) == []  # no basophils: printed so by many labs
    both = [coded(name, code) for name, code in CBC.items() if name not in ("MCHC", "Hematocrit")]
    assert panels.missing_members(ReportData(results=both)) == []  # two absent: a partial panel, as before


def test_a_liver_panel_without_ast_or_a_metabolic_panel_without_bicarbonate_says_nothing_alone():
    # British and Irish "LFTs" print no AST; many renal/metabolic panels print no bicarbonate.
    lfts = [coded("Bilirubin", "1975-2"), coded("ALP", "6768-6"), coded("ALT", "1742-6"), coded("Albumin", "1751-7"),
            coded("Total protein", "2885-2")]
    assert panels.missing_members(ReportData(results=lfts)) == []
    assert not any("AST" in reason for reason in route_report(ReportData(results=lfts)).reasons)
    chem = [coded("Glucose", "2345-7"), coded("Urea", "3094-0"), coded("Creatinine", "2160-0"), coded("Sodium", "2951-2"),
            coded("Potassium", "2823-3"), coded("Chloride", "2075-0"), coded("Calcium", "17861-6")]
    assert panels.missing_members(ReportData(results=chem)) == []
    # Another member missing from the same panels still says a row may have been dropped.
    no_alt = [row for row in lfts if row.test_name != "ALT"] + [coded("AST", "1920-8")]
    assert panels.missing_members(ReportData(results=no_alt)) == [
        "liver panel without its ALT (a row may have been dropped)"]
    no_na = [row for row in chem if row.test_name != "Sodium"] + [coded("Bicarbonate", "1963-8")]
    assert panels.missing_members(ReportData(results=no_na)) == [
        "metabolic panel without its sodium (a row may have been dropped)"]
