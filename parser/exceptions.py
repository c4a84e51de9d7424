"""Errors a report can fail with, each with a message a person can act on.

Every error carries the contract's `failure_reason`, the CLI exit code, and the
HTTP status the API answers with when the error is found at upload time.
Messages never contain patient data.
"""

from __future__ import annotations


class LabReportError(Exception):
    """Base of every expected failure; `message` is shown to the user as is."""

    failure_reason = "processing_error"
    exit_code = 1
    http_status = 400

    def __init__(self, message: str | None = None):
        self.message = message or self.default_message()
        super().__init__(self.message)

    def default_message(self) -> str:
        return "the report could not be processed"


class InvalidInputError(LabReportError):
    failure_reason = "invalid_input"
    exit_code = 2

    def default_message(self) -> str:
        return "the file is not a readable lab report"


class EmptyFileError(InvalidInputError):
    def default_message(self) -> str:
        return "the file is empty"


class UnsupportedTypeError(InvalidInputError):
    def default_message(self) -> str:
        return "unsupported file type: only PDF, JPEG and PNG are accepted"


class TypeMismatchError(InvalidInputError):
    def default_message(self) -> str:
        return "the declared file type does not match the file's content"


class FileTooLargeError(InvalidInputError):
    exit_code = 3
    http_status = 413

    def default_message(self) -> str:
        return "the file is larger than the 10 MB limit"


class CorruptPdfError(InvalidInputError):
    def default_message(self) -> str:
        return "the PDF is corrupt and cannot be opened"


class EncryptedPdfError(InvalidInputError):
    def default_message(self) -> str:
        return "the PDF is encrypted or password-protected; upload an unprotected copy"


class UndecodableImageError(InvalidInputError):
    def default_message(self) -> str:
        return "the image cannot be decoded"


class DecompressionBombError(InvalidInputError):
    def default_message(self) -> str:
        return (
            "the file unpacks to far more data than a lab report holds (a decompression bomb "
            "or a giant image); export or scan the report again at 300 dpi"
        )


class MemoryLimitError(InvalidInputError):
    """A parse ran out of its memory ceiling: the input checks missed a bomb."""

    def default_message(self) -> str:
        return (
            "the file needs more memory to read than any lab report should (probably a "
            "decompression bomb or a giant image); export or scan the report again at 300 dpi"
        )


class TooManyFilesError(InvalidInputError):
    def default_message(self) -> str:
        return "too many files: at most 8 images can be merged into one report"


class PdfInMultiUploadError(InvalidInputError):
    def default_message(self) -> str:
        return "a PDF cannot be part of a multi-file upload; send it on its own"


class TooManyPagesError(LabReportError):
    failure_reason = "too_many_pages"
    exit_code = 4

    def default_message(self) -> str:
        return "the document has more pages than the page limit"


class LowQualityError(LabReportError):
    failure_reason = "low_quality"
    exit_code = 5

    def default_message(self) -> str:
        return "the image quality is too low to read the report"


class NotEnglishError(LabReportError):
    failure_reason = "not_english"
    exit_code = 6

    def default_message(self) -> str:
        return ("the report is not in a language the parser reads "
                "(English, French, German, Italian, Spanish)")


class ProcessingError(LabReportError):
    failure_reason = "processing_error"
    exit_code = 7
    http_status = 500

    def default_message(self) -> str:
        return "an internal error stopped the report from being processed"


class OcrUnavailableError(ProcessingError):
    def default_message(self) -> str:
        return "the tesseract OCR binary is not installed (Debian: apt-get install tesseract-ocr)"
