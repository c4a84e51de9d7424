"""The tesseract reader process (`parser.tesseract.Engine`): libtesseract's C API through ctypes.

Run as a file by a bare Python (`python -I -S tesseract_reader.py LIBRARY`: no site packages,
~0.03 s to start), so it imports nothing but the standard library. Requests on stdin:
"psm dpi language width height\\n" and the 8-bit grey pixels; replies on stdout: "ok N\\n" or
"error N\\n" and N bytes (TSV text or a message). It ends at the end of its input, which is
also what happens when the process that started it dies.
"""

import ctypes
import sys


def load(path: str) -> ctypes.CDLL:
    """The library with the C API's signatures that this reader uses."""
    lib = ctypes.CDLL(path)
    handle = ctypes.c_void_p
    lib.TessBaseAPICreate.restype = handle
    lib.TessBaseAPIInit3.argtypes = [handle, ctypes.c_char_p, ctypes.c_char_p]
    lib.TessBaseAPIDelete.argtypes = [handle]
    lib.TessBaseAPISetPageSegMode.argtypes = [handle, ctypes.c_int]
    lib.TessBaseAPISetImage.argtypes = [handle, ctypes.c_char_p] + [ctypes.c_int] * 4
    lib.TessBaseAPISetSourceResolution.argtypes = [handle, ctypes.c_int]
    lib.TessBaseAPIRecognize.argtypes = [handle, ctypes.c_void_p]
    lib.TessBaseAPIGetTsvText.argtypes = [handle, ctypes.c_int]
    lib.TessBaseAPIGetTsvText.restype = ctypes.c_void_p
    lib.TessDeleteText.argtypes = [ctypes.c_void_p]
    lib.TessBaseAPIClear.argtypes = [handle]
    return lib


def recognize(lib: ctypes.CDLL, api, pixels: bytes, width: int, height: int, psm: int, dpi: int):
    """(status, body) of one recognition by `api`: the TSV text, or why it failed."""
    lib.TessBaseAPISetPageSegMode(api, psm)
    lib.TessBaseAPISetImage(api, pixels, width, height, 1, width)
    lib.TessBaseAPISetSourceResolution(api, dpi)
    if lib.TessBaseAPIRecognize(api, None) != 0:
        lib.TessBaseAPIClear(api)
        return b"error", b"recognition failed"
    text = lib.TessBaseAPIGetTsvText(api, 0)
    body = ctypes.string_at(text)
    lib.TessDeleteText(text)
    lib.TessBaseAPIClear(api)
    return b"ok", body


def serve(lib: ctypes.CDLL, source, sink) -> None:
    """Answer requests until the input ends; one initialised API per language asked for."""
    apis = {}

    def reply(status: bytes, body: bytes) -> None:
        sink.write(status + b" %d\n" % len(body) + body)
        sink.flush()

    reply(b"ready", b"")
    try:
        for request in iter(source.readline, b""):
            psm, dpi, language, width, height = request.split()
            width, height = int(width), int(height)
            pixels = source.read(width * height)
            api = apis.get(language)
            if api is None:
                api = lib.TessBaseAPICreate()
                if lib.TessBaseAPIInit3(api, None, language) != 0:
                    lib.TessBaseAPIDelete(api)
                    reply(b"error", b"no language data " + language)
                    continue
                apis[language] = api
            reply(*recognize(lib, api, pixels, width, height, int(psm), int(dpi)))
    finally:
        for api in apis.values():
            lib.TessBaseAPIDelete(api)


if __name__ == "__main__":
    serve(load(sys.argv[1]), sys.stdin.buffer, sys.stdout.buffer)
