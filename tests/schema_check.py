#!/usr/bin/python3
"""Validate YAML files against the JSON Schemas of schemas/ (docs/schemas.md).

usage: schema_check.py SCHEMA FILE...   validate each FILE against SCHEMA
       schema_check.py --schemas DIR     check every DIR/*.schema.json

Prints "FILE: ok", or one line per error: "FILE:LINE:COLUMN: PATH: message".
Exit status: 0 all valid, 1 some error, 2 bad usage.

Run it with /usr/bin/python3: the validator is Debian's python3-jsonschema
(with python3-yaml), which a python3 of pyenv or a venv first on PATH does
not see.
"""
import json
import pathlib
import re
import sys
import warnings

import jsonschema
import yaml

# RefResolver is deprecated from jsonschema 4.18 (in favour of `referencing`)
# but still works; Debian 12 ships 4.10, which has no `referencing`.
warnings.simplefilter("ignore", DeprecationWarning)


# ---- YAML as editors and the engine read it ----

class Loader(yaml.SafeLoader):
    """yaml.SafeLoader reading YAML 1.2's core schema, as yaml-language-server
    does: `yes`, `on` and 2024-01-01 stay text (PyYAML's YAML 1.1 would make
    them true and a date), 010 is ten. Like the engine's reader
    (core/data/yaml.c), it refuses duplicate keys and anchors; map keys are kept
    as written (`1:` is the key "1", as the engine sees it)."""


Loader.yaml_implicit_resolvers = {}
for tag, pattern, first in [
        ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
        ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
        ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
        ("float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                  r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+.0123456789")]:
    Loader.add_implicit_resolver("tag:yaml.org,2002:" + tag, re.compile(pattern), list(first))


def construct_int(loader, node):
    text = loader.construct_scalar(node)
    base = {"0o": 8, "0x": 16}.get(text[:2], 10)
    return int(text[2:] if base != 10 else text, base)


def construct_mapping(loader, node, deep=False):
    mapping = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise yaml.constructor.ConstructorError(None, None, "a map key must be a single value",
                                                    key_node.start_mark)
        if key_node.value in mapping:
            raise yaml.constructor.ConstructorError(None, None, "duplicate key '%s'" % key_node.value,
                                                    key_node.start_mark)
        mapping[key_node.value] = loader.construct_object(value_node, deep=deep)
    return mapping


def compose_node(loader, parent, index):
    event = loader.peek_event()
    if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
        raise yaml.composer.ComposerError(None, None, "YAML anchors (&name) and aliases are not allowed",
                                          event.start_mark)
    return yaml.SafeLoader.compose_node(loader, parent, index)


Loader.add_constructor("tag:yaml.org,2002:int", construct_int)
Loader.construct_mapping = construct_mapping
Loader.compose_node = compose_node


def load_yaml(path):
    """(data, root node) of the YAML file PATH; raises yaml.YAMLError."""
    with open(path, encoding="utf-8") as f:
        loader = Loader(f.read())
    try:
        node = loader.get_single_node()
        return (loader.construct_document(node) if node is not None else None), node
    finally:
        loader.dispose()


def node_at(node, path):
    """The YAML node at the JSON path PATH (as far as it goes), for its line."""
    for step in path:
        if isinstance(node, yaml.MappingNode):
            found = [v for k, v in node.value if k.value == step]
            if not found:
                break
            node = found[0]
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
        else:
            break
    return node


def unexpected_key(error, node):
    """For an unknown or refused field, the node of its key (the line to show)."""
    if not isinstance(node, yaml.MappingNode):
        return node
    if isinstance(error.instance, str):  # propertyNames: the instance is the key
        return next((key for key, _ in node.value if key.value == error.instance), node)
    if error.validator != "additionalProperties":
        return node
    known = error.schema.get("properties", {})
    patterns = error.schema.get("patternProperties", {})
    for key, _ in node.value:
        if key.value not in known and not any(re.search(p, key.value) for p in patterns):
            return key
    return node


def path_text(path):
    text = ""
    for step in path:
        text += "[%d]" % step if isinstance(step, int) else ("." if text else "") + str(step)
    return text or "(top)"


# ---- Schemas ----

# Keywords that may stand beside a $ref: draft-07 ignores every other one.
REF_SIBLINGS = {"$ref", "description", "title", "default", "examples", "$comment"}


def load_schemas(folder):
    """{path: schema} of every *.schema.json in FOLDER."""
    return {p: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.schema.json"))}


def make_validator(path, schemas):
    schema = schemas[path]
    cls = jsonschema.validators.validator_for(schema, default=None)
    if cls is None:
        raise jsonschema.SchemaError("unknown $schema %r" % schema.get("$schema"))
    # References between the schemas are relative ("card-file.schema.json#/..."),
    # resolved against the file's own location, as editors resolve them.
    store = {}
    for p, s in schemas.items():
        store[p.resolve().as_uri()] = s
    resolver = jsonschema.RefResolver(base_uri=path.resolve().as_uri(), referrer=schema, store=store)
    return cls, cls(schema, resolver=resolver)


def lint_schema(path, schemas):
    """The problems of schema PATH: its metaschema, and this project's rules
    (an $id naming the file, a title and description, a description on every
    property for editors' hover text, no constraint beside a $ref, every $ref
    resolving)."""
    schema = schemas[path]
    try:
        cls, validator = make_validator(path, schemas)
    except jsonschema.SchemaError as e:
        return [str(e.message)], None
    problems = ["metaschema: %s: %s" % (path_text(e.absolute_path), e.message)
                for e in cls(cls.META_SCHEMA).iter_errors(schema)]
    if schema.get("$id") != path.name:
        problems.append("$id must be the file's name, %r (relative references resolve against it)" % path.name)
    for key in ("title", "description"):
        if not schema.get(key):
            problems.append("no %s" % key)
    counts = {"properties": 0, "refs": 0}

    def walk(node, where):
        if isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, where + [i])
            return
        if not isinstance(node, dict):
            return
        if "$ref" in node:
            counts["refs"] += 1
            extra = set(node) - REF_SIBLINGS
            if extra:
                problems.append("%s: beside $ref, %s would be ignored (use allOf)" % (path_text(where), sorted(extra)))
            try:
                validator.resolver.resolve(node["$ref"])
            except jsonschema.RefResolutionError as e:
                problems.append("%s: $ref %s does not resolve: %s" % (path_text(where), node["$ref"], e))
        # In a map of names (properties, definitions...) the keys are not keywords.
        names = where[-1:] in (["properties"], ["patternProperties"], ["definitions"], ["dependencies"])
        for key, value in node.items():
            if not names and key in ("properties", "patternProperties") and isinstance(value, dict):
                for name, sub in value.items():
                    counts["properties"] += 1
                    if isinstance(sub, dict) and not sub.get("description"):
                        problems.append("%s: no description" % path_text(where + [key, name]))
            walk(value, where + [key])

    walk(schema, [])
    return problems, counts


def check_schemas(folder):
    schemas = load_schemas(folder)
    if not schemas:
        print("%s: no *.schema.json" % folder)
        return 1
    bad = 0
    for path in schemas:
        problems, counts = lint_schema(path, schemas)
        for p in problems:
            print("%s: %s" % (path, p))
        if problems:
            bad += 1
        else:
            print("%s: schema ok (%s; %d properties described, %d $refs resolved)"
                  % (path, schemas[path]["$schema"], counts["properties"], counts["refs"]))
    return 1 if bad else 0


# ---- Files ----

def error_text(error):
    """The message of ERROR, with the closest reason for anyOf/oneOf."""
    message = error.message
    if error.context:
        best = jsonschema.exceptions.best_match(error.context)
        message += " (%s%s)" % (path_text(best.relative_path) + ": " if best.relative_path else "", best.message)
    return message if len(message) <= 400 else message[:400] + "..."


def check_files(schema_path, files):
    schemas = load_schemas(schema_path.parent)
    if schema_path not in schemas:
        print("%s: not a *.schema.json file" % schema_path)
        return 2
    problems, _ = lint_schema(schema_path, schemas)
    if problems:
        for p in problems:
            print("%s: %s" % (schema_path, p))
        return 1
    _, validator = make_validator(schema_path, schemas)
    status = 0
    for file in files:
        try:
            data, root = load_yaml(file)
        except (OSError, UnicodeDecodeError) as e:
            print("%s: cannot read: %s" % (file, e))
            status = 1
            continue
        except (yaml.YAMLError, ValueError) as e:  # ValueError: an explicit !!int that is not one
            mark = getattr(e, "problem_mark", None)
            where = ":%d:%d" % (mark.line + 1, mark.column + 1) if mark else ""
            print("%s%s: %s" % (file, where, getattr(e, "problem", None) or e))
            status = 1
            continue
        errors = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
        for e in errors:
            node = unexpected_key(e, node_at(root, e.absolute_path)) if root is not None else None
            where = ":%d:%d" % (node.start_mark.line + 1, node.start_mark.column + 1) if node is not None else ""
            print("%s%s: %s: %s" % (file, where, path_text(e.absolute_path), error_text(e)))
        if errors:
            status = 1
        else:
            print("%s: ok" % file)
    return status


def main(argv):
    if len(argv) == 3 and argv[1] == "--schemas":
        return check_schemas(pathlib.Path(argv[2]))
    if len(argv) >= 3 and not argv[1].startswith("-"):
        return check_files(pathlib.Path(argv[1]), argv[2:])
    print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
