#!/usr/bin/env python3
"""Validates JSON documents against a JSON Schema (draft 2020-12) with python3-jsonschema,
a validator nfcbench did not write. Usage: validate.py SCHEMA FILE...
Prints one line per error (file, path, message); exits 1 when any document fails, 2 when
the schema itself is not a valid schema or the validator is missing."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is missing: scripts/test.sh installs it (apt-get install python3-jsonschema)")
    sys.exit(2)

schema = json.load(open(sys.argv[1], encoding="utf-8"))
try:
    jsonschema.Draft202012Validator.check_schema(schema)
except jsonschema.exceptions.SchemaError as error:
    print(f"the schema is not a valid draft 2020-12 schema: {error.message}")
    sys.exit(2)
validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
failed = False
for path in sys.argv[2:]:
    document = json.load(open(path, encoding="utf-8"))
    for error in sorted(validator.iter_errors(document), key=lambda e: list(e.path)):
        failed = True
        print(f"{path}: /{'/'.join(str(p) for p in error.path)}: {error.message}")
print("invalid" if failed else f"{len(sys.argv) - 2} valid")
sys.exit(1 if failed else 0)
