"""Reads a Prometheus text exposition on stdin and prints it as JSON, parsed by prometheus-client's
own parser (text_string_to_metric_families): {"families": {name: type}, "samples": [{"name",
"labels", "value"}]}. A document the parser refuses exits 1 with its error."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

text = sys.stdin.read()
families = {}
samples = []
try:
    for family in text_string_to_metric_families(text):
        families[family.name] = family.type
        for sample in family.samples:
            samples.append({"name": sample.name, "labels": sample.labels, "value": sample.value})
except Exception as error:  # the parser's own message says what it could not read
    print(f"not a Prometheus text exposition: {error}", file=sys.stderr)
    sys.exit(1)
json.dump({"families": families, "samples": samples}, sys.stdout)
