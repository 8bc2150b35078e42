"""Real Python encoder for the trap-model tests.

stdin: one JSON text per line. stdout: one line per input, the results of each variant
(python, python-unicode, python-spaces, python-spaces-unicode) separated by tabs, each the hex
of the UTF-8 bytes json.dumps produced, or "!" and the error's name.
"""
import json
import sys

VARIANTS = [
    {"separators": (",", ":")},
    {"separators": (",", ":"), "ensure_ascii": False},
    {},
    {"ensure_ascii": False},
]


def encode(value, options):
    try:
        return json.dumps(value, sort_keys=True, **options).encode("utf-8").hex()
    except Exception as error:  # RecursionError, UnicodeEncodeError, ...
        return "!" + type(error).__name__


for line in sys.stdin:
    try:
        value = json.loads(line)
    except Exception as error:
        print("\t".join(["!" + type(error).__name__] * len(VARIANTS)))
        continue
    print("\t".join(encode(value, options) for options in VARIANTS))
