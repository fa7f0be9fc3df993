#!/usr/bin/env python3
"""Validates JSON documents (or NDJSON lines with --ndjson) against a JSON Schema 2020-12
with the independent `jsonschema` package. Exit 0 if all valid, 1 otherwise (errors printed).

Usage: validate-json-schema.py SCHEMA FILE [--ndjson]
"""
import json
import sys

import jsonschema


def main():
    schema_path, data_path = sys.argv[1], sys.argv[2]
    ndjson = "--ndjson" in sys.argv[3:]
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    with open(data_path) as f:
        text = f.read()
    docs = [json.loads(line) for line in text.splitlines() if line.strip()] if ndjson else [json.loads(text)]
    failures = 0
    for i, doc in enumerate(docs, 1):
        for error in validator.iter_errors(doc):
            failures += 1
            print(f"{data_path}:{i}: {error.json_path}: {error.message}")
    print(f"{len(docs)} checked, {failures} errors")
    sys.exit(1 if failures or not docs else 0)


if __name__ == "__main__":
    main()
