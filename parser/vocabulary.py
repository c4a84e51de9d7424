"""Words that carry meaning on a report page, keyed by language: column headings, section
(panel) words, printed flags, metadata labels and labels that are never test names.

One module, one place: the layout, flag and metadata stages read these tables through the
merged views at the bottom, so adding a language is adding entries here (keys "fr", "de",
"it", "es" next to "en"). Labels are lower case with punctuation dropped, as `label_key`
and the metadata label lookup normalise them.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Column kinds (the same strings parser.columns uses).
NAME, RESULT, FLAG, UNITS, RANGE = "name", "result", "flag", "units", "range"
IN_RANGE, OUT_OF_RANGE, PREVIOUS, OTHER = "in_range", "out_of_range", "previous", "other"

# ---------------------------------------------------------------- table column headings
HEADER_LABELS: dict[str, dict[str, list[str]]] = {
    "en": {
        NAME: [
            "test", "tests", "test name", "test names", "investigation", "investigations",
            "analysis", "analyte", "analytes", "parameter", "parameters", "test description",
            "description", "component", "components", "examination", "test performed",
            "tests performed", "name of test", "test parameter", "lab test", "assay",
            "result name",  # Cerner PowerChart flowsheets
        ],
        RESULT: [
            "result", "results", "value", "values", "your value", "observed value",
            "observed values", "result value", "patient value", "patient result", "findings",
            "current result", "test result", "test results", "measured value", "your result",
        ],
        FLAG: ["flag", "flags", "abnormal flag", "abn flag", "status", "h/l", "alert",
               "abn", "interpretation"],  # HL7 lab viewers (OBX-8 "Abnormal Flags"): "Result  Abn  Reference Range"
        UNITS: ["unit", "units", "uom", "unit of measure", "units of measure"],
        RANGE: [
            "reference range", "reference ranges", "reference interval", "reference intervals",
            "reference value", "reference values", "ref range", "ref value", "ref values",
            "ref interval", "ref intervals", "bio ref interval", "bio ref range",
            "biological ref interval", "biological reference interval", "biological ref range",
            "biological reference range", "normal range", "normal ranges", "normal value",
            "normal values", "expected value", "expected values", "expected range",
            "standard range", "reference", "range", "interval", "ref", "limits",
            "reference limits", "ref limits",
        ],
        IN_RANGE: ["in range", "within range", "within normal range", "normal result"],
        OUT_OF_RANGE: [
            "out of range", "outside range", "out of normal range", "abnormal result",
            "abnormal", "outside normal range",
        ],
        PREVIOUS: [
            "previous result", "previous results", "previous", "prior result", "prior results",
            "prior", "last result", "previous value", "previous values", "earlier result",
            "historical result", "previous result and date", "prior result and date",
            "prior value", "last value",
            # The change from the previous result ("Change %", "Delta", signed "+13%"): a
            # comparison with a past result, never this report's value or range.
            "change", "percent change", "change from previous", "delta", "delta check",
        ],
        OTHER: ["method", "methods", "methodology", "technology", "technique", "specimen", "date",
                "lab", "site", "comment", "comments", "remarks", "performing lab", "code", "loinc",
                "sample", "cpt", "test code", "instrument",
                # A row-number column before the names ("S/N  Parameter", "Sl. No.  Test"):
                # its numbers are never part of a name.
                "s/n", "s/no", "sno", "sl no", "sr no", "s no", "serial no",
                # A column of group labels before the names: see GROUP_HEADINGS.
                "group"],
    },
}

# A cumulative table's heading naming the column of this report's own sampling, beside the
# earlier samplings' dates ("Attuale 14/03/25", "Aktuell", "Current"): that column is the
# result wherever it stands. As `columns.label_key` reads them.
CURRENT_COLUMN_LABELS: dict[str, list[str]] = {
    "en": ["current", "today", "latest", "this sample", "this episode", "current episode"],
    "fr": ["actuel", "actuelle", "du jour", "ce jour", "aujourd hui", "prelevement du jour"],
    "de": ["aktuell", "aktueller wert", "heute", "jetzt"],
    "it": ["attuale", "oggi", "corrente", "valore attuale"],
    "es": ["actual", "hoy", "valor actual"],
}

# ---------------------------------------------------------------- section (panel) headings
# Words that make a line without a value read as a section heading ("Renal Function Panel").
SECTION_WORDS: dict[str, list[str]] = {
    "en": [
        "panel", "profile", "count", "test", "tests", "function", "studies", "markers",
        "chemistry", "hematology", "haematology", "urinalysis", "urine", "lipid", "lipids",
        "differential", "electrolytes", "serology", "vitamins", "hormone", "hormones", "thyroid",
        "iron", "analysis", "examination", "biochemistry", "immunology", "coagulation", "cbc",
        "cmp", "bmp", "lft", "kft", "rft", "tft", "hba1c", "diabetes", "metabolic", "cardiac",
        "inflammation", "inflammatory", "routine", "complete", "special",
    ],
}

# Words of a method / technique line printed under a test name.
METHOD_WORDS: dict[str, list[str]] = {
    "en": [
        "calculated", "calculation", "derived", "immunoturbidimetry", "impedance", "photometry",
        "spectrophotometry", "colorimetric", "enzymatic", "kinetic", "clia", "cmia", "eclia",
        "elisa", "hplc", "ise", "flow cytometry", "microscopy", "uricase", "urease", "jaffe",
        "turbidimetric", "chemiluminescence", "immunoassay", "biuret", "bcg", "arsenazo",
        "molybdate", "ifcc", "vcs", "automated",
        "impedence",  # sic: Indian lab systems print "(Electrical Impedence)" under blood counts
    ],
}
# Labels starting a method line ("Method: ...").
METHOD_LABELS: dict[str, list[str]] = {
    "en": ["method", "methodology", "technique", "principle", "technology"]}

# Labels of a specimen line printed under a section heading ("Material: EDTA-Blut",
# "Échantillon : Plasma hépariné"): it names the sample, never the panel. English keeps its
# older form (the label alone may start the line); the others need the colon after the label.
SPECIMEN_LABELS: dict[str, list[str]] = {
    "en": ["sample", "specimen", "sample type", "specimen type", "primary sample type", "material"],
    "fr": ["échantillon", "echantillon", "nature de l'échantillon", "type d'échantillon", "matériel",
           "materiel", "matrice"],
    "de": ["material", "probe", "probenmaterial", "untersuchungsmaterial", "probenart"],
    "it": ["campione", "materiale", "tipo campione", "tipo di campione", "matrice"],
    "es": ["muestra", "tipo de muestra", "material", "espécimen", "especimen"],
}

# ---------------------------------------------------------------- not test names
# Line starts that mean "not a result" even when something sits in the value column.
NON_RESULT_LABELS: dict[str, list[str]] = {
    "en": [
        "sample", "specimen", "sample type", "specimen type", "method", "methodology", "note",
        "notes", "comment", "comments", "interpretation", "remark", "remarks", "tat", "page",
        "printed", "reported", "collected", "received", "registered", "ref by", "ref. by",
        "referred", "doctor", "dr.", "signature", "end of report", "result", "results",
        "instrument", "instruments", "clinical", "advice", "kindly", "please", "test name",
        "investigation", "patient", "name", "age", "sex", "gender", "dob", "date", "lab no",
        "accession", "uhid", "barcode", "report status", "status",
        # identifiers and visit labels that are printed like "LAB NO. : 2" inside tables
        "mrn", "patient id", "visit", "visit no", "bill no", "ward", "bed", "ip no", "op no",
        "reg no", "registration", "consultant", "location", "time",
    ],
}

# ---------------------------------------------------------------- printed flags
# Printed flag (upper case) -> (interpretation, direction).
FLAGS: dict[str, dict[str, tuple[str, str | None]]] = {
    "en": {
        "H": ("abnormal", "high"), "HI": ("abnormal", "high"), "HIGH": ("abnormal", "high"),
        "L": ("abnormal", "low"), "LO": ("abnormal", "low"), "LOW": ("abnormal", "low"),
        "A": ("abnormal", None), "ABN": ("abnormal", None), "ABNORMAL": ("abnormal", None),
        "*": ("abnormal", None), "**": ("abnormal", None),
        "↑": ("abnormal", "high"), "↓": ("abnormal", "low"),
        "HH": ("critical", "high"), "LL": ("critical", "low"), "H*": ("critical", "high"),
        "L*": ("critical", "low"), "!H": ("critical", "high"), "!L": ("critical", "low"),
        "↑↑": ("critical", "high"), "↓↓": ("critical", "low"),
        "!!": ("critical", None), "!": ("abnormal", None), "C": ("critical", None),
        "CRIT": ("critical", None), "CRITICAL": ("critical", None),
        "PANIC": ("critical", None), "CRITICAL HIGH": ("critical", "high"),
        "CRITICAL LOW": ("critical", "low"), "HIGH*": ("critical", "high"),
        "LOW*": ("critical", "low"),
        "N": ("normal", None), "NORMAL": ("normal", None), "WNL": ("normal", None),
        "BORDERLINE": ("abnormal", None), "BORDERLINE HIGH": ("abnormal", "high"),
        "BORDERLINE LOW": ("abnormal", "low"),
        # SNOMED CT qualifiers UK GP systems (EMIS Web, SystmOne) print as the abnormality.
        "ABOVE HIGH REFERENCE LIMIT": ("abnormal", "high"),
        "BELOW LOW REFERENCE LIMIT": ("abnormal", "low"),
    },
}

# ---------------------------------------------------------------- metadata labels
METADATA_LABELS: dict[str, dict[str, list[str]]] = {
    "en": {
        "name": ["patient name", "name", "patient", "pt name", "patient's name", "name of patient",
                 "patient full name", "full name", "patient name (last, first)",
                 "patient name (first, last)", "first name last name", "first and last name",
                 "name of the patient", "patient name and surname"],
        "first_name": ["first name", "given name", "forename", "given names", "forenames",
                       "patient first name", "patient given name"],
        "last_name": ["last name", "surname", "family name", "patient surname", "patient last name"],
        "dob": ["dob", "d o b", "date of birth", "birth date", "birthdate", "born",
                "date of birth (dob)", "birth"],
        "gender": ["gender", "sex"],
        "age_gender": ["age / gender", "age/gender", "age / sex", "age/sex", "sex / age",
                       "sex/age", "gender / age", "gender/age", "age-sex", "age & sex",
                       "age & gender"],
        "lab": ["lab", "laboratory", "lab name", "performing lab", "performing laboratory",
                "testing lab"],
        "collected": ["collected", "collected on", "collection date", "date collected",
                      "sample collected", "sample collected on", "collection date/time",
                      "collection date & time", "specimen collected", "date of collection",
                      "sample collection date", "collection time", "collected date", "drawn",
                      "date drawn", "collection", "sample date", "specimen date",
                      "date/time collected", "date & time of collection", "coll date",
                      "coll date/time", "specimen taken", "collected at", "sample collected at",
                      "sample collection", "date/time of collection", "sample drawn",
                      # A hospital system's abbreviation (MEDITECH: "COLL: 03/14/25-0545").
                      "coll", "sample taken", "taken on", "date taken",
                      # "Sampling 14/03/2025 08:05": the act named alone, as a noun or a participle.
                      "sampling", "sampling time", "sampled", "sampled on", "sampled at",
                      "time of collection", "specimen collection", "collection date and time",
                      "date and time of collection",
                      # A blood donor's report: the donation is the sampling.
                      "donation", "donation date", "date of donation"],
        "reported": ["reported", "reported on", "report date", "date reported", "date of report",
                     "report released", "released", "released on", "result date",
                     "reporting date", "final report date", "report date/time", "reported date",
                     "report printed", "date/time reported", "authorised on", "authorized on",
                     "verified on", "authorised", "authorized", "validated", "validated on",
                     "approved", "approved on", "verified", "signed out", "finalized",
                     "finalised", "report generated", "resulted", "resulted on",
                     # An EMR's lab view: the time the lab last reported this order.
                     "last reported", "reported at", "report date & time", "reporting date & time",
                     "reporting time", "report time", "result released",
                     # When the report was printed (a hospital system's "RUN DATE"): the
                     # report's date only where no other report date is printed
                     # (metadata_labels.print_label).
                     "printed", "printed on", "run date",
                     # A print stamp naming who printed, then when: its date, if printed.
                     "printed by",
                     # When the report was issued to the patient or the ward.
                     "issued", "issued on", "report issued", "validation", "rpt date", "rep date",
                     # A line printer's cut labels ("COLL / RECD / AUTH: 09.03.25 13:15"): authorised.
                     "auth", "auth date", "auth on"],
        "specimen": ["accession", "accession no", "accession number", "accession #", "acc no",
                     "acc #", "specimen id", "specimen no", "specimen number", "specimen #",
                     "sample id", "sample no", "sample number", "lab no", "lab number", "lab id",
                     "lab ref", "barcode", "barcode no", "requisition no", "requisition #",
                     "order no", "order number", "specimen", "accession id", "lab accession",
                     "sample barcode", "lab ref no", "lab ref number", "lab reference no",
                     "lab #", "lab code", "labcode", "lab report id", "req #", "req no",
                     "lab reference"],
        # Several fields under one label ("DOB / Sex: 22-Jul-1964 / Female").
        "dob_gender": ["dob / sex", "dob/sex", "dob / gender", "dob/gender", "dob / age / sex",
                       "dob/age/sex", "dob / age / gender", "date of birth / sex",
                       "dob / sex / age", "dob / age", "dob/age", "age / dob", "age/dob"],
        # When the lab received the SAMPLE, or the patient's visit (tested on site): the sampling
        # date only where the report prints none (metadata.extract_metadata). A bare receipt
        # label ("Received", "Recepción") dates the request, no sample: the stored real reports
        # print "Recepción" without a sampling date and expect none.
        "received": ["sample received", "specimen received", "sample received on",
                     "sample receipt", "visit date", "date of visit", "visit date/time"],
        # Labels read so they are never taken as another label's value ("Name: MRN ...").
        "other": ["mrn", "uhid", "patient id", "pid", "age", "time", "ref by", "referred by",
                  "doctor", "physician", "visit no", "bill no", "ward", "bed", "ip no", "op no",
                  "reg no", "registration no", "client", "location", "registered", "received",
                  "received on", "recd", "date received", "received date", "date/time received",
                  "received at",
                  "status", "report status", "phone", "address", "email",
                  "medical record no", "medical record number", "registered on",
                  "registration date", "referring physician", "ordering provider",
                  "ordering physician", "consultant",
                  # An identity document's number (Malta's "ID Card No."): never a name.
                  "id card", "id card no", "id card number", "identity card no",
                  "identity card number", "national id", "national id no",
                  "id no", "id number", "passport no", "passport number", "nhs no", "nhs number",
                  "nhi", "nhi no", "nhn", "hospital no", "hospital number", "insurance",
                  "insurance no", "affiliate no",
                  # The patient's number, never a name ("Patient No. PT-88213").
                  "patient no", "patient number", "patient #"],
    },
}


# ---------------------------------------------------------------- French, German, Italian, Spanish
# Issue 13. Column headings are written as `columns.label_key` reads them: lower case, accents
# folded, letters only ("Unités" -> "unites"). Section words, non-result labels and metadata
# labels are matched on the printed text (case-insensitive), so accented and unaccented forms
# both appear. Anteriority columns (previous results) are PREVIOUS: never the current value.
HEADER_LABELS.update({
    "fr": {
        NAME: ["analyse", "analyses", "examen", "examens", "parametre", "parametres", "designation",
               "libelle", "test", "tests"],
        RESULT: ["resultat", "resultats", "valeur", "valeurs", "resultat du jour"],
        FLAG: ["indicateur", "alerte", "interpretation"],
        UNITS: ["unite", "unites"],
        RANGE: ["valeurs de reference", "valeur de reference", "valeurs normales",
                "valeurs usuelles", "intervalle de reference", "intervalles de reference",
                "normes", "references", "valeurs de references"],
        PREVIOUS: ["anteriorites", "anteriorite", "resultat anterieur", "resultats anterieurs",
                   "valeur anterieure", "valeurs anterieures", "precedent", "dernier resultat",
                   "resultat precedent", "valeur precedente", "precedente"],
        # Quebec-kind grids print the value in one of two columns by whether it is in range.
        IN_RANGE: ["dans les normes", "dans la norme", "dans les limites", "resultat normal"],
        OUT_OF_RANGE: ["hors normes", "hors norme", "hors des normes", "hors limites",
                       "resultat anormal", "anormal"],
        OTHER: ["methode", "technique", "date", "commentaire", "code", "groupe"],
    },
    "de": {
        NAME: ["untersuchung", "untersuchungen", "analyse", "analyt", "bezeichnung", "kenngrosse",
               "test"],
        RESULT: ["ergebnis", "ergebnisse", "befund", "wert", "messwert", "resultat"],
        FLAG: ["hinweis", "kennzeichen", "kennz", "bewertung"],
        UNITS: ["einheit", "einheiten", "dimension"],
        RANGE: ["referenzbereich", "referenzbereiche", "referenzwert", "referenzwerte",
                "referenzintervall", "normalbereich", "normbereich", "normalwert", "normalwerte", "normwert",
                "normwerte"],
        PREVIOUS: ["vorwert", "vorwerte", "vorbefund", "letzter wert", "vorheriges ergebnis",
                   "vorheriger wert", "letzte untersuchung", "letzter befund", "vorergebnis"],
        OTHER: ["methode", "material", "datum", "kommentar", "kurzel", "kurzbezeichnung", "code", "gruppe"],
    },
    "it": {
        NAME: ["esame", "esami", "analisi", "parametro", "parametri", "prova", "descrizione",
               "test"],
        RESULT: ["risultato", "risultati", "valore", "esito"],
        FLAG: ["segnalazione", "segnalazioni", "interpretazione"],
        UNITS: ["unita di misura", "unita", "um", "u m"],
        RANGE: ["valori di riferimento", "valore di riferimento", "intervallo di riferimento",
                "valori normali", "range di riferimento", "riferimento", "intervallo"],
        PREVIOUS: ["precedente", "precedenti", "valore precedente", "risultato precedente",
                   "esito precedente", "risultati precedenti", "ultimo risultato", "ultimo valore"],
        OTHER: ["metodo", "metodica", "materiale", "data", "commento", "codice", "cod", "gruppo"],
    },
    "es": {
        NAME: ["prueba", "pruebas", "determinacion", "determinaciones", "analisis", "parametro",
               "parametros", "examen", "estudio", "descripcion"],
        RESULT: ["resultado", "resultados", "valor"],
        FLAG: ["indicador", "ind", "alerta", "interpretacion"],
        UNITS: ["unidades", "unidad", "unid"],
        RANGE: ["valores de referencia", "valor de referencia", "intervalo de referencia",
                "rango de referencia", "valores normales", "rango normal", "rango", "referencia"],
        PREVIOUS: ["resultado anterior", "resultados anteriores", "anterior", "valor anterior",
                   "previo", "resultado previo", "ultimo resultado", "valor previo"],
        OTHER: ["metodo", "tecnica", "muestra", "fecha", "comentario", "codigo", "cod", "grupo"],
    },
})

# A reference range printed as two columns, the lower limit's and the upper's, each labelled
# ("Norm von | bis", "Min | Max", "Ref Low | Ref High"): as `columns.label_key` reads them.
# The lower label may follow a word naming the range ("Norm von"). Short words that prose uses
# ("de", "a", "da") are left out: the pair is read only where both stand as column labels.
LIMIT_COLUMN_LABELS: dict[str, tuple[list[str], list[str]]] = {
    "en": (["low", "lower", "lower limit", "min", "minimum", "ref low", "low limit"],
           ["high", "upper", "upper limit", "max", "maximum", "ref high", "high limit"]),
    "fr": (["min", "mini", "minimum", "limite inferieure", "borne inferieure"],
           ["max", "maxi", "maximum", "limite superieure", "borne superieure"]),
    "de": (["von", "min", "untere grenze", "unterer grenzwert", "untergrenze"],
           ["bis", "max", "obere grenze", "oberer grenzwert", "obergrenze"]),
    "it": (["min", "minimo", "limite inferiore"], ["max", "massimo", "limite superiore"]),
    "es": (["min", "minimo", "desde", "limite inferior"], ["max", "maximo", "hasta", "limite superior"]),
}

SECTION_WORDS.update({
    "fr": ["hématologie", "hematologie", "biochimie", "numération", "numeration", "formule",
           "hémogramme", "hemogramme", "hémostase", "hemostase", "coagulation", "bilan",
           "lipidique", "hépatique", "hepatique", "rénal", "renal", "martial", "thyroïdien",
           "thyroidien", "ionogramme", "sérologie", "serologie", "immunologie", "urinaire",
           "urines", "protéines", "proteines", "vitamines", "hormonologie", "enzymologie",
           "électrophorèse", "electrophorese", "gazométrie", "gazometrie"],
    "de": ["hämatologie", "hamatologie", "haematologie", "blutbild", "differentialblutbild",
           "klinische chemie", "chemie", "gerinnung", "elektrolyte", "lipide", "fettstoffwechsel",
           "leberwerte", "nierenwerte", "nierenfunktion", "schilddrüse", "schilddruse",
           "eisenstoffwechsel", "urinstatus", "urin", "serologie", "immunologie", "hormone",
           "vitamine", "entzündung", "enzyme", "blutgasanalyse", "diabetes"],
    "it": ["ematologia", "emocromo", "chimica clinica", "biochimica", "coagulazione",
           "emostasi", "assetto", "lipidico", "epatico", "renale", "marziale", "tiroidea",
           "funzionalità", "funzionalita", "elettroliti", "sierologia", "immunologia",
           "urine", "esame urine", "vitamine", "ormoni", "proteine", "emogasanalisi"],
    "es": ["hematología", "hematologia", "hemograma", "bioquímica", "bioquimica", "coagulación",
           "coagulacion", "hemostasia", "perfil", "lipídico", "lipidico", "hepático", "hepatico",
           "renal", "férrico", "ferrico", "tiroideo", "iones", "serología", "serologia",
           "inmunología", "inmunologia", "orina", "sistemático", "sistematico", "vitaminas",
           "hormonas", "proteínas", "proteinas", "gasometría", "gasometria", "serie",
           "hemocultivos", "microbiología", "microbiologia"],
})

METHOD_WORDS.update({
    "fr": ["calculé", "calcule", "colorimétrie", "colorimetrie", "enzymatique", "immunoturbidimétrie",
           "immunoturbidimetrie", "chimiluminescence", "électrochimiluminescence", "cytométrie",
           "cytometrie", "potentiométrie", "potentiometrie", "spectrophotométrie", "impédance"],
    "de": ["berechnet", "photometrisch", "enzymatisch", "turbidimetrisch", "durchflusszytometrie",
           "potentiometrisch", "immunologisch", "impedanz"],
    "it": ["calcolato", "colorimetrico", "enzimatico", "immunoturbidimetrico",
           "chemiluminescenza", "citofluorimetria", "potenziometria", "impedenza"],
    "es": ["calculado", "colorimétrico", "colorimetrico", "enzimático", "enzimatico",
           "inmunoturbidimetría", "quimioluminiscencia", "citometría", "potenciometría",
           "impedancia"],
})
METHOD_LABELS.update({
    "fr": ["méthode", "methode", "technique"],
    "de": ["methode", "messmethode", "verfahren"],
    "it": ["metodo", "metodica", "tecnica"],
    "es": ["método", "metodo", "técnica", "tecnica"],
})

NON_RESULT_LABELS.update({
    "fr": ["prélèvement", "prelevement", "prélevé", "preleve", "échantillon", "echantillon",
           "commentaire", "commentaires", "remarque", "interprétation", "interpretation",
           "conclusion", "nom", "prénom", "prenom", "né le", "née le", "né(e) le", "ne le",
           "date de naissance", "dossier", "prescripteur", "médecin", "medecin", "édité",
           "edite", "validé", "valide", "biologiste", "sexe", "âge", "page",
           "fin du compte rendu", "fin de compte rendu", "fin du rapport"],
    "de": ["probe", "material", "methode", "kommentar", "bemerkung", "hinweis", "beurteilung",
           "vorname", "nachname", "geburtsdatum", "geschlecht", "datum", "seite", "einsender",
           "auftrag", "auftragsnummer", "eingang", "entnahme", "arzt", "ärztin", "alter",
           "station", "befundbericht", "freigabe", "validiert", "ende des befundes",
           "ende des berichts"],
    "it": ["campione", "materiale", "metodo", "commento", "note", "nota", "interpretazione",
           "cognome", "nome", "nato il", "nata il", "data di nascita", "sesso", "età", "eta",
           "pagina", "medico", "accettazione", "referto", "refertato", "provenienza", "reparto",
           "fine referto", "fine del referto", "fine rapporto"],
    "es": ["muestra", "muestras", "método", "metodo", "comentario", "comentarios", "nota",
           "observaciones", "interpretación", "interpretacion", "nombre", "apellidos",
           "fecha de nacimiento", "fecha nacimiento", "sexo", "edad", "doctor", "médico",
           "medico", "origen", "recepción", "recepcion", "finalización", "finalizacion",
           "nº petición", "nº historia", "n° petición", "n° historia", "petición", "peticion",
           "historia", "página", "pagina", "servicio", "procedencia", "validado",
           "fin del informe", "fin de informe"],
})

# Letters that are flags only in brackets after a value ("10,6 (B)": bas, bajo, basso): alone,
# "B" is a blood group or a grade (parser/flags.py asks these after FLAGS).
BRACKETED_FLAGS: dict[str, tuple[str, str | None]] = {"B": ("abnormal", "low")}

FLAGS.update({
    "fr": {"ÉLEVÉ": ("abnormal", "high"), "ELEVE": ("abnormal", "high"),
           "ÉLEVÉE": ("abnormal", "high"), "ELEVEE": ("abnormal", "high"),
           "HAUT": ("abnormal", "high"), "BAS": ("abnormal", "low"), "BASSE": ("abnormal", "low"),
           "ANORMAL": ("abnormal", None), "CRITIQUE": ("critical", None),
           "AUGMENTÉ": ("abnormal", "high"), "AUGMENTÉE": ("abnormal", "high"),
           "DIMINUÉ": ("abnormal", "low"), "DIMINUÉE": ("abnormal", "low")},
    "de": {"ERHÖHT": ("abnormal", "high"), "ERHOEHT": ("abnormal", "high"),
           "ERHOHT": ("abnormal", "high"), "ERNIEDRIGT": ("abnormal", "low"),
           "HOCH": ("abnormal", "high"), "NIEDRIG": ("abnormal", "low"),
           "PATHOLOGISCH": ("abnormal", None), "PATHOL.": ("abnormal", None),
           "PATHOL": ("abnormal", None), "KRITISCH": ("critical", None)},
    "it": {"ALTO": ("abnormal", "high"), "ALTA": ("abnormal", "high"),
           "BASSO": ("abnormal", "low"), "BASSA": ("abnormal", "low"),
           "ANORMALE": ("abnormal", None), "ANOMALO": ("abnormal", None),
           "ANOMALA": ("abnormal", None), "CRITICO": ("critical", None),
           "AUMENTATO": ("abnormal", "high"), "AUMENTATA": ("abnormal", "high"),
           "DIMINUITO": ("abnormal", "low"), "DIMINUITA": ("abnormal", "low")},
    "es": {"ALTO": ("abnormal", "high"), "ALTA": ("abnormal", "high"),
           "BAJO": ("abnormal", "low"), "BAJA": ("abnormal", "low"),
           "ANORMAL": ("abnormal", None), "CRÍTICO": ("critical", None),
           "CRITICO": ("critical", None),
           # An observation column's words (Bolivia): "Aumentado", "Disminuido".
           "AUMENTADO": ("abnormal", "high"), "AUMENTADA": ("abnormal", "high"),
           "DISMINUIDO": ("abnormal", "low"), "DISMINUIDA": ("abnormal", "low")},
})

METADATA_LABELS.update({
    "fr": {
        "name": ["nom du patient", "patient", "patiente", "nom et prénom", "nom prénom",
                 "nom - prénom", "nom - prenom", "nom-prénom", "nom / prénom",
                 # Given name first, as the label says (metadata_labels.declared_name_order).
                 "prénom nom", "prénom et nom", "prénom, nom", "prenom nom",
                 # The insured's dependant the care is for: the patient.
                 "bénéficiaire", "beneficiaire"],
        "first_name": ["prénom", "prenom", "prénoms", "prenoms", "prénom usuel"],
        "last_name": ["nom", "nom de naissance", "nom d'usage", "nom de famille"],
        "dob": ["né(e) le", "née le", "né le", "ne(e) le", "nee le", "ne le", "date de naissance",
                "date de naiss", "ddn", "naissance"],
        "gender": ["sexe", "genre"],
        # HPRIM results name the sending lab "Émetteur".
        "lab": ["laboratoire", "émetteur", "emetteur"],
        "collected": ["prélevé le", "preleve le", "prélevé(e) le", "prélèvement",
                      "prelevement", "date de prélèvement", "date de prelevement",
                      "prélèvement du", "prélevé", "don du", "date du don"],
        "reported": ["édité le", "edite le", "validé le", "valide le", "date d'édition",
                     "compte rendu du", "compte-rendu du", "edité le", "compte rendu validé le", "imprimé par",
                     "date de validation", "imprimé le", "rapport final",
                     "rapport du", "rapport"],
        "specimen": ["n° de dossier", "n° dossier", "nº dossier", "dossier", "n° d'échantillon",
                     "n° d'ordre", "nº d'ordre", "no d'ordre", "n° d’ordre",
                     "n° de demande", "n° demande", "demande n°", "dossier n°", "dossier nº",
                     "numéro de demande", "réf dossier", "n° de prélèvement",
                     # The sample's bar code, the lab's own reference.
                     "code-barres", "code barre", "code-barre", "code barres", "réf labo",
                     "réf laboratoire", "référence laboratoire"],
        "received": ["échantillon reçu le", "echantillon recu le", "réception de l'échantillon",
                     "réception échantillon"],
        "other": ["âge", "age", "prescripteur", "médecin", "medecin", "reçu le", "recu le",
                  "réception", "reception", "enregistré le", "biologiste", "adresse", "téléphone", "ipp", "n° patient",
                  "nº patient", "numéro patient", "dr prescripteur",
                  "n° d'identification", "identifiant", "n° de sécurité sociale",
                  # The request's registration number: the specimen's when no specimen label
                  # is printed (metadata._registration_number).
                  "n° d'enregistrement", "n° enregistrement", "nº d'enregistrement",
                  "n° sécurité sociale", "nir", "n° ss"],
    },
    "de": {
        "first_name": ["vorname"],
        # An occupational-health report names the patient as the employee ("Beschäftigte/r").
        "name": ["name, vorname", "patientenname", "patient/in", "patientin", "pat -name",
                 "beschäftigte/r", "beschäftigter", "beschäftigte", "mitarbeiter/in",
                 "vorname name", "vorname, name", "vorname nachname"],
        "last_name": ["nachname", "familienname"],
        "dob": ["geburtsdatum", "geb", "geb am", "geboren am", "geb datum", "geb -datum", "geboren",
                "geburtstag"],
        "gender": ["geschlecht", "geschl"],
        "lab": ["labor", "laboratorium"],
        "collected": ["entnahme", "entnahmedatum", "entnahme am", "probenentnahme",
                      "abnahme", "abnahmedatum", "entnahmezeit", "abnahmezeit", "abgenommen am",
                      "probenahme", "entnommen am", "entnahmezeitpunkt", "blutentnahme",
                      "blutentnahme am", "spende vom", "blutspende vom", "spendedatum",
                      "materialentnahme", "materialabnahme", "probennahme", "probenentnahme am"],
        "reported": ["befunddatum", "befund vom", "ausgedruckt am", "ausgedruckt", "freigabe", "validiert am",
                     "druckdatum", "befundet am", "befund", "ausgang", "validiert", "befundausgang",
                     "erstellt am", "berichtsdatum", "freigegeben am", "gedruckt am", "freigegeben",
                     "befundfreigabe", "gedruckt von", "befund erstellt", "bericht vom", "endbefund vom"],
        "specimen": ["auftragsnummer", "auftrag", "auftrags-nr", "auftrags nr", "probennummer",
                     "labornummer", "auftragsnr", "proben-nr", "tagesnummer", "eingangsnummer",
                     "probennr", "auftrag nr", "tagesnr", "eingangsnr",
                     "laborauftrag", "laborauftragsnummer", "laborauftrags-nr"],
        "received": ["probeneingang", "materialeingang", "probe eingegangen"],
        "other": ["alter", "einsender", "arzt", "station", "eingang", "eingangsdatum", "eingang labor",
                  "laboreingang", "verordn arzt", "personal-nr",
                  "patienten-id", "pat -nr", "patienten-nr", "pat -id", "versicherung",
                  "auftraggeber", "versichertennummer", "versicherten-nr", "versicherten nr",
                  "ahv-nr", "ahv nr", "ahv-nummer"],
    },
    "it": {
        "name": ["paziente", "nominativo", "cognome e nome", "nome e cognome", "nome cognome",
                 # The national health service's word for its patient.
                 "assistito", "assistita", "assistito/a"],
        "first_name": ["nome"],
        "last_name": ["cognome"],
        "dob": ["nato il", "nata il", "nato/a il", "data di nascita", "data nascita",
                # The birthplace and the date in one value ("Napoli, 12/04/1958").
                "nato a", "nata a", "nato/a a", "luogo e data di nascita", "data e luogo di nascita"],
        "gender": ["sesso"],
        "lab": ["laboratorio"],
        "collected": ["data prelievo", "data del prelievo", "prelievo del", "prelevato il",
                      "data di prelievo", "prelievo", "donazione", "donazione del", "prelevato"],
        "reported": ["data referto", "data di refertazione", "refertato il", "data stampa",
                     "data del referto", "validato il", "data validazione", "referto del",
                     "validato", "validata", "validazione", "stampato il", "stampato", "stampato da",
                     # Signed (digitally) on: the report's validation.
                     "firmato il", "firmato digitalmente il"],
        "specimen": ["n campione", "n° campione", "n accettazione", "n° accettazione",
                     "accettazione", "n richiesta", "n° richiesta", "numero richiesta",
                     "id campione", "codice campione", "cod campione", "codice richiesta",
                     "n prelievo", "codice prelievo", "codice a barre", "cod a barre"],
        "received": ["campione ricevuto il", "data ricevimento campione", "ricevimento campione"],
        "other": ["età", "eta", "medico", "medico richiedente", "reparto", "provenienza",
                  "codice fiscale", "data accettazione", "cod paziente", "codice paziente", "id paziente",
                  "medico curante", "tessera sanitaria", "n tessera sanitaria",
                  # The request's registration (metadata._registration_number).
                  "n registrazione", "n° registrazione", "numero registrazione"],
    },
    "es": {
        "name": ["paciente", "nombre y apellidos", "apellidos y nombre", "nombre del paciente",
                 "apellidos, nombre", "apellidos nombre",
                 # A social-security lab's patient: the insured person or a dependant.
                 "asegurado / beneficiario", "beneficiario", "beneficiaria"],
        "first_name": ["nombre", "nombres"],
        "last_name": ["apellidos", "apellido"],
        "dob": ["fecha de nacimiento", "fecha nacimiento", "f nacimiento", "nacido el", "nacida el",
                "nacido/a el", "nacimiento",
                "f nac", "fecha nac", "fecha de nac", "f de nac"],
        "gender": ["sexo", "género", "genero"],
        "lab": ["laboratorio"],
        "collected": ["fecha de extracción", "fecha extracción", "fecha de extraccion",
                      "fecha extraccion", "extracción", "extraccion", "fecha de toma", "f extracción",
                      "f extraccion",
                      "fecha de recogida", "fecha de obtención", "toma de muestra", "fecha y hora de toma",
                      "muestra tomada", "donación", "fecha de donación", "extraído el", "extraido el",
                      "extraída el", "extraida el"],
        "reported": ["fecha de informe", "fecha informe", "f informe", "finalización", "finalizacion",
                     "fecha de validación", "fecha validación", "validado", "validación", "validacion",
                     "fecha de emisión",
                     "fecha emisión", "impreso por",
                     # When the results were handed over: the report's date.
                     "fecha de entrega", "fecha y hora de entrega", "validado el", "informado el"],
        "specimen": ["nº petición", "n° petición", "nº peticion", "n° peticion", "petición",
                     "peticion", "número de petición", "nº de petición", "nº muestra",
                     "n° muestra", "nº de muestra", "n° de petición", "n° de peticion", "nº de peticion",
                     "n petición", "n peticion", "n° de muestra", "protocolo", "protocolo nº",
                     "protocolo n°", "nº de protocolo", "n° de protocolo", "orden", "no orden",
                     # Mexican and Venezuelan labs number the request as a "folio".
                     "folio", "no de folio", "n° de folio", "nº de folio", "número de folio",
                     # The request ("Solicitud 250314-0412") or order ("Nº de pedido").
                     "solicitud", "pedido", "nº de pedido", "n° de pedido",
                     "código de barras", "codigo de barras", "cód barras"],
        "received": ["recepción de muestra", "recepción de la muestra", "muestra recibida",
                     "fecha de recepción de la muestra"],
        "other": ["edad", "doctor", "médico", "medico", "nº historia", "n° historia",
                  "historia", "origen", "recepción", "recepcion", "servicio", "procedencia",
                  "fecha de recepción", "fecha de recepcion",
                  "nhc", "cama", "destino", "médico solicitante", "medico solicitante", "solicitante",
                  # Identity and insurance numbers (Mexico, Venezuela): never a specimen's.
                  "nss", "curp", "cédula", "cedula", "expediente",
                  # The request's registration number: the specimen's when no specimen label
                  # is printed (metadata._registration_number), as English "Reg. No.".
                  "nº de registro", "n° de registro", "nº registro", "n° registro",
                  "número de registro", "registro",
                  "dni", "c i", "rut", "documento", "n° documento", "nº documento",
                  "documento de identidad", "identificación", "identificacion", "matrícula",
                  "matricula", "historia clínica", "historia clinica", "h c"],
    },
})


# ---------------------------------------------------------------- qualitative results
# Printed qualitative results beyond the English ones of parser.normalize (urine strips,
# serology, aspect and colour), lower case; accented and unaccented forms both appear.
# "negative" words: the result is the expected normal for a screening test.
QUALITATIVE_WORDS: dict[str, list[str]] = {
    "fr": ["négatif", "negatif", "négative", "negative", "positif", "positive", "traces", "trace",
           "absence", "absent", "absents", "absente", "présence", "presence", "présent", "present",
           "non détecté", "non detecte", "détecté", "detecte", "jaune", "jaune pâle", "jaune clair",
           "jaune foncé", "jaune fonce", "ambré", "ambre", "limpide", "clair", "trouble",
           "légèrement trouble", "legerement trouble", "rares", "quelques", "nombreux", "normal",
           "non réactif", "non reactif", "réactif", "reactif"],
    "de": ["negativ", "positiv", "spuren", "klar", "trüb", "trub", "leicht trüb", "leicht trub",
           "gelb", "hellgelb", "dunkelgelb", "bernsteinfarben", "strohgelb", "nicht nachweisbar",
           "nachweisbar", "vereinzelt", "reichlich", "unauffällig", "unauffallig", "normal",
           "nicht reaktiv", "reaktiv"],
    "it": ["negativo", "negativa", "positivo", "positiva", "tracce", "assente", "assenti",
           "presente", "presenti", "giallo", "giallo paglierino", "paglierino", "giallo chiaro",
           "giallo scuro", "giallo carico", "ambrato", "limpido", "torbido", "lievemente torbido",
           "leggermente torbido", "molto torbido", "opalescente", "leggermente opalescente",
           "rari", "rare", "non rilevabile", "normale", "non reattivo", "reattivo"],
    "es": ["negativo", "negativa", "positivo", "positiva", "indicios", "trazas", "ausencia",
           "ausente", "presencia", "presente", "amarillo", "amarillo claro", "amarillo oscuro",
           "ámbar", "ambar", "transparente", "claro", "turbio", "ligeramente turbio", "límpido",
           "limpido", "no se observan", "escasos", "escasas", "escaso", "escasa", "abundantes",
           "abundante", "normal", "no reactivo", "no reactiva", "reactivo", "reactiva"],
}
# The English ones as a pattern: modifiers, spelling variants and blood groups beside the
# words (a whole cell matches; see qualitative_result).
# Abbreviated headings of a block's own line of headings, inside a table ("%  v.r. %  v.a.
# v.r. v.a."): a range's (valori di riferimento, valeurs de référence, valeurs usuelles) and
# an absolute count's, whose unit its cells print (valore assoluto, valeur absolue, valor absoluto).
BLOCK_RANGE_HEADINGS = ("v.r.", "v.n.", "v.ref.", "v.u.")
ABSOLUTE_COUNT_HEADINGS = ("v.a.", "valore assoluto", "valori assoluti", "valeur absolue",
                           "valeurs absolues", "valor absoluto", "valores absolutos", "absolute",
                           "absolut", "abs.", "absolutwert")
# The heading of a column of group labels printed left of the names, on the first row of each
# group ("Gruppe  Analyse  Resultat": "Hämatologie" beside "Hämoglobin"): never a name's part.
GROUP_HEADINGS = ("group", "groupe", "gruppe", "gruppo", "grupo")


ENGLISH_QUALITATIVE = (
    r"(?:(?:very\s+|slightly\s+|weakly\s+|strongly\s+|pale\s+|dark\s+|light\s+)?"
    r"(?:trace|nil|few|many|occasional|rare|moderate|plenty|small|large|scanty|numerous|"
    r"present|absent|seen|not\s+seen|none\s+seen|normal|abnormal|clear|turbid|hazy|cloudy|yellow|straw|"
    r"amber|colou?rless|red|brown|orange|green|pink|white|black|non[\s-]?reactive|reactive|"
    r"not\s+detected|detected|negative|positive|equivocal|indeterminate|inconclusive|"
    r"borderline|acidic|alkaline|neutral|formed|semi[\s-]?formed|soft|hard|watery|loose|"
    r"mucoid|bloody|sterile|no\s+growth|growth|immune|non[\s-]?immune|susceptible|resistant|"
    r"sensitive|intermediate|within\s+normal\s+limits|wnl|see\s+(?:note|comment|below|report)|"
    r"pending|cancelled|canceled|tnp|qns|adequate|inadequate|satisfactory|unsatisfactory|"
    r"(?:a|b|ab|o)\s*(?:rh)?\s*(?:positive|negative|pos|neg|\+|-)?|rh\s*(?:positive|negative)|"
    r"[+]{1,4}|\d\s*\+)|"
    # A microscopy finding named in the negative: "No MPs seen", "No ova or cysts seen".
    r"no\s+(?:[a-z][\w.+/-]*\s+){1,3}(?:seen|detected|found|observed|isolated)|"
    # ... and named when found: "P. falciparum seen" (its grade after it, "(++)"), "Trophozoites seen".
    r"(?:[a-z][\w.+/-]*\s+){1,3}(?:seen|isolated))"
)
NEGATIVE_WORDS: dict[str, list[str]] = {
    "fr": ["négatif", "negatif", "négative", "absence", "absent", "absente", "non détecté",
           "non detecte", "non réactif", "non reactif"],
    "de": ["negativ", "nicht nachweisbar", "nicht reaktiv"],
    "it": ["negativo", "negativa", "assente", "assenti", "non rilevabile", "non reattivo"],
    "es": ["negativo", "negativa", "ausencia", "ausente", "no se observan", "no reactivo", "no reactiva"],
}


# ---------------------------------------------------------------- sex words
# Printed sex of the patient after its label, lower case. Single letters stay English only
# (Spanish and Italian "M" is a woman, mujer, as often as a man), except German "w" (weiblich,
# the "m/w" of German forms), which no language prints for a man.
GENDER_WORDS: dict[str, dict[str, list[str]]] = {
    # With their abbreviations as forms print them ("masc.", "fém.", "weibl.", "männl.", "femm.").
    "fr": {"male": ["masculin", "homme", "masc"], "female": ["féminin", "feminin", "femme", "fém", "fem"]},
    "de": {"male": ["männlich", "maennlich", "mannlich", "mann", "männl", "maennl", "mannl"],
           "female": ["weiblich", "frau", "w", "weibl"],
           "other": ["divers"]},  # the third entry of the German civil register
    "it": {"male": ["maschio", "maschile", "uomo", "masch"], "female": ["femmina", "femminile", "donna", "femm"]},
    "es": {"male": ["masculino", "hombre", "varón", "varon", "masc"], "female": ["femenino", "mujer", "fem"]},
}
# The sexes that lead a range's tiers ("Uomo: 13,5 - 17,5  Donna: 12,0 - 15,5"), plurals too.
RANGE_SEX_WORDS: dict[str, dict[str, list[str]]] = {
    "en": {"male": ["male", "males", "men", "man", "m"], "female": ["female", "females", "women", "woman", "f"]},
    "fr": {"male": ["hommes", "homme"], "female": ["femmes", "femme"]},
    "de": {"male": ["männer", "maenner", "mann", "männlich", "maennlich"],
           "female": ["frauen", "frau", "weiblich"]},
    "it": {"male": ["uomini", "uomo", "maschi", "maschio", "maschile"],
           "female": ["donne", "donna", "femmine", "femmina", "femminile"]},
    "es": {"male": ["hombres", "hombre", "varones", "varón", "varon"], "female": ["mujeres", "mujer"]},
}


def range_sex_words() -> dict[str, str]:
    """Lower-case word leading a range tier -> "male" / "female", every language's."""
    return {word: sex for table in RANGE_SEX_WORDS.values() for sex, entries in table.items()
            for word in entries}


# The labels of interpretive tiers printed in a range cell ("Below 6.0% : Normal / 6.0% -
# 6.5% : Prediabetic", "Desirable : < 200 / Borderline High : 200 - 239"): the normal tier is
# the reference range, the others are decision limits. Longest first where one holds another.
RANGE_TIER_WORDS: dict[str, list[str]] = {
    "normal": ["normal", "desirable", "optimal", "sufficiency", "sufficient", "non diabetic",
               "non-diabetic", "souhaitable", "optimale", "wünschenswert", "ottimale",
               "desiderabile", "deseable", "óptimo", "suffisance", "suficiencia"],
    "other": ["borderline high", "borderline low", "borderline", "very high", "high",
              "low", "near optimal", "above optimal", "prediabetic", "pre-diabetic",
              "prediabetes", "pre-diabetes", "diabetic", "diabetes", "deficiency", "deficient",
              "insufficiency", "insufficient", "toxicity", "toxic", "elevated", "intermediate",
              "carence", "insuffisance", "mangel", "carenza", "insufficienza", "deficiencia",
              "insuficiencia", "élevé", "limite", "erhöht", "elevato", "elevado"],
}


# Ions as analyzers and blood-gas printouts name them, with their charge ("K+", "CL-", "HCO3-"):
# the charge is part of the name, never a flag or a leader (lower case; looked up folded).
ION_NAMES: frozenset[str] = frozenset({
    "na+", "k+", "cl-", "hco3-", "ca++", "ca2+", "mg++", "mg2+", "nh4+", "li+", "h+", "fe++", "fe2+",
    "fe+++", "fe3+", "zn++", "zn2+", "po4---", "so4--"})

# Labels printed before a range inside its cell ("V.R.: 4,00 - 5,20", "Ref.: 3.5 - 5.1"): the
# range columns' headings of every language, and the abbreviations labs print.
RANGE_CELL_ABBREVIATIONS: list[str] = ["v r", "vr", "v n", "vn", "v ref", "val ref", "ref", "rif", "ref val",
                                       "norm", "normal", "n"]

# Time zones printed after a collection time ("03/14/2025 05:42 EDT"): a date column's end.
TIME_ZONES: list[str] = ["EST", "EDT", "CST", "CDT", "MST", "MDT", "PST", "PDT", "AKST", "AKDT", "HST",
                         "UTC", "GMT", "BST", "WET", "WEST", "CET", "CEST", "EET", "EEST", "IST",
                         "AEST", "AEDT"]

# Words joining a result's second measurement on its line ("55,2 %  soit 3,37 G/l").
MEASURE_JOINERS: list[str] = ["soit", "ou", "=", "bzw", "bzw.", "entspr.", "oder", "ovvero"]
# Of those, the ones seen opening a line of their own under the row they restate in another unit
# ("Glucose 1,18 g/L" over "soit 6,55 mmol/L 3,89 à 6,11": French labs print the SI value under the
# conventional one; parser/unread.py). The others were never seen on a result line of their own.
RESTATING_LINE_OPENERS: list[str] = ["soit"]

# Names of tests printed without a unit by design, by language: ratios and quotients, indices, pH,
# specific gravity (urine density), INR. A number without a unit under such a name lost nothing.
# Whole words ("concentration" and "saturation" hold "ratio", "Lymph" ends in "ph": both need units).
UNITLESS_TEST_WORDS: dict[str, list[str]] = {
    "en": ["ratio", "index", "ph", "specific gravity", "sg", "sp gr", "inr"],
    "fr": ["rapport", "ratio", "indice", "index", "ph", "densité", "densite", "densité urinaire", "inr"],
    "de": ["quotient", "verhältnis", "verhaeltnis", "ratio", "index", "ph", "ph-wert",
           "spezifisches gewicht", "spez gewicht", "inr"],
    "it": ["rapporto", "indice", "ph", "peso specifico", "inr"],
    "es": ["cociente", "relación", "relacion", "índice", "indice", "ph", "densidad", "peso específico",
           "peso especifico", "inr"],
}


@lru_cache(maxsize=1)
def unitless_test_name() -> re.Pattern[str]:
    """A test name holding one of UNITLESS_TEST_WORDS of any language, as a whole word."""
    alternatives = "|".join(re.escape(word).replace(r"\ ", r"[\s.]+")
                            for word in sorted(words(UNITLESS_TEST_WORDS), key=len, reverse=True))
    return re.compile(r"(?<![^\W\d_])(?:" + alternatives + r")(?![^\W\d_])", re.I)


# Comment columns, in each language, that may print the flag words instead ("Remarks: High").
REMARK_LABELS: list[str] = ["comment", "comments", "remarks", "commentaire", "kommentar", "commento",
                            "comentario"]

# Words of a laboratory's name in each language (the lab name has no label on most reports).
LAB_NAME_WORDS: list[str] = [
    "laboratoire", "laboratoires", "lbm", "biologie médicale", "labor", "laboratorium",
    "labormedizin", "laboratoriumsmedizin", "mvz", "laboratorio", "analisi cliniche",
    "análisis clínicos", "analisis clinicos", "centro diagnostico",
    # Hospitals and institutes whose laboratory prints their name ("Azienda Ospedaliera ...",
    # "Laborinstitut Dr. ...", "Centre hospitalier ...").
    "laborinstitut", "laborpraxis", "ospedaliera", "policlinico",
    "hôpital", "hopital", "centre hospitalier", "krankenhaus", "spital", "clínica", "clinica",
]


# ---------------------------------------------------------------- merged views
def _merge_lists(table: dict[str, list]) -> list:
    seen: dict = {}
    for entries in table.values():
        for entry in entries:
            seen.setdefault(entry, None)
    return list(seen)


def _merge_keyed(table: dict[str, dict]) -> dict:
    merged: dict = {}
    for entries in table.values():
        for key, value in entries.items():
            if isinstance(value, list):
                merged.setdefault(key, [])
                merged[key].extend(v for v in value if v not in merged[key])
            else:
                merged.setdefault(key, value)
    return merged


@lru_cache(maxsize=1)
def header_labels() -> dict[str, str]:
    """Heading label -> column kind, all languages."""
    return {label: kind for kind, labels in _merge_keyed(HEADER_LABELS).items() for label in labels}


@lru_cache(maxsize=1)
def metadata_labels() -> dict[str, str]:
    """Metadata label -> field, all languages."""
    return {label: f for f, labels in _merge_keyed(METADATA_LABELS).items() for label in labels}


@lru_cache(maxsize=1)
def flags() -> dict[str, tuple[str, str | None]]:
    return _merge_keyed(FLAGS)


def words(table: dict[str, list[str]]) -> list[str]:
    """A word list of all languages (SECTION_WORDS, METHOD_WORDS, NON_RESULT_LABELS...)."""
    return _merge_lists(table)


@lru_cache(maxsize=1)
def qualitative_result() -> re.Pattern[str]:
    """A whole cell that is a printed qualitative result, in any language ("Negative",
    "Pale Yellow", "O Rh Positive", "jaune foncé", "nicht nachweisbar"): the one home of the
    words the normaliser (a text value worth keeping) and the header finder (a data row's
    cell, not a heading) both need. European words longest first, so "jaune foncé" wins."""
    european = "|".join(re.escape(word).replace(r"\ ", r"\s+")
                        for word in sorted(words(QUALITATIVE_WORDS), key=len, reverse=True))
    return re.compile(r"^(?:" + ENGLISH_QUALITATIVE + "|" + european + r")$", re.I)


@lru_cache(maxsize=1)
def european_presence_words() -> frozenset[str]:
    """The European words of a presence result ("négatif", "positivo", "nicht nachweisbar"):
    every negative word and the positive ones. The normaliser types such a value boolean;
    LOINC annotation asks for a presence code for it."""
    return frozenset({*words(NEGATIVE_WORDS),
                      *(word for word in words(QUALITATIVE_WORDS) if word.startswith("posi"))})


@lru_cache(maxsize=1)
def range_cell_labels() -> list[str]:
    """Every label a range may be printed after inside its cell, longest first."""
    headings = {label for kind, labels in _merge_keyed(HEADER_LABELS).items() if kind == RANGE for label in labels}
    return sorted(headings | set(RANGE_CELL_ABBREVIATIONS), key=len, reverse=True)
