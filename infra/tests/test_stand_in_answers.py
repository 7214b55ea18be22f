"""The stand-in's answer fast path (infra/stand_in_dynamodb.py): an attribute
map of plain values is copied instead of walked by moto's serializer. The
same results written both ways must give the same JSON, byte for byte, and
maps the fast path does not know (binary values) must still go moto's way.

Run: .venv/bin/python -m unittest discover -s infra/tests -v
"""

from __future__ import annotations

import base64
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import stand_in_dynamodb  # noqa: E402

stand_in_dynamodb.apply()

from moto.core.responses import get_service_model  # noqa: E402
from moto.core.serialize import BaseJSONSerializer, XFormedAttributePicker, get_serializer_class  # noqa: E402
from moto.dynamodb.models.dynamo_type import DynamoType  # noqa: E402
from moto.dynamodb.models.utilities import dynamo_to_dict  # noqa: E402

PATCHED = BaseJSONSerializer._serialize_type_map
ORIGINAL = PATCHED.__standin_original__


def item(i: int) -> dict:
    """An item with every non-binary type, nested, as moto stores it."""
    return {
        "PK": DynamoType({"S": f"CASE#{i}"}),
        "SK": DynamoType({"S": "CASE"}),
        "title": DynamoType({"S": "Hyresrätt — tvist “€” \n\t\u0000 ✓"}),
        "empty": DynamoType({"S": ""}),
        "hours": DynamoType({"N": "12.25"}),
        "big": DynamoType({"N": "-1234567890123456789012345678.5"}),
        "flag": DynamoType({"BOOL": i % 2 == 0}),
        "nothing": DynamoType({"NULL": True}),
        "tags": DynamoType({"SS": ["a", "b", "ö"]}),
        "counts": DynamoType({"NS": ["1", "2.5"]}),
        "meta": DynamoType({"M": {
            "by": {"S": "lawyer"},
            "n": {"N": "3"},
            "deep": {"M": {"list": {"L": [{"S": "x"}, {"N": "1"}, {"BOOL": False}, {"NULL": True}, {"M": {}}, {"L": []}]}}},
            "set": {"SS": ["z"]},
        }}),
        "history": DynamoType({"L": [{"M": {"at": {"S": "2026-11-25"}, "v": {"N": "1"}}}, {"L": [{"S": "nested"}]}]}),
        "emptymap": DynamoType({"M": {}}),
        "emptylist": DynamoType({"L": []}),
    }


def binary_item() -> dict:
    return {
        "PK": DynamoType({"S": "DOC#1"}),
        "SK": DynamoType({"S": "DOC"}),
        "blob": DynamoType({"B": base64.b64encode(b"\x00\x01binary\xff").decode()}),
        "blobs": DynamoType({"BS": [base64.b64encode(b"one").decode(), base64.b64encode(b"two").decode()]}),
        "inner": DynamoType({"M": {"b": {"B": base64.b64encode(b"in a map").decode()}}}),
    }


RESULTS = {
    "GetItem": {"Item": item(1), "ConsumedCapacity": {"TableName": "t", "CapacityUnits": 0.5}},
    "Query": {
        "Items": [item(i) for i in range(30)],
        "Count": 30,
        "ScannedCount": 31,
        "LastEvaluatedKey": {"PK": DynamoType({"S": "CASE#29"}), "SK": DynamoType({"S": "CASE"})},
    },
    "Scan": {"Items": [], "Count": 0, "ScannedCount": 0},
    "BatchGetItem": {
        "Responses": {"t": [item(2), item(3)], "u": []},
        "UnprocessedKeys": {"t": {"Keys": [{"PK": DynamoType({"S": "X"}), "SK": DynamoType({"S": "Y"})}]}},
    },
    "UpdateItem": {"Attributes": item(4)},
    "PutItem": {},
    "DeleteItem": {"Attributes": {"PK": DynamoType({"S": "gone"}), "n": DynamoType({"N": "0"})}},
    "TransactGetItems": {"Responses": [{"Item": item(5)}, {}]},
}


def serialize(operation: str, result: dict, fast: bool) -> dict:
    model = get_service_model("dynamodb")
    op = model.operation_model(operation)
    serializer = get_serializer_class("dynamodb", model.protocol)(
        operation_model=op, pretty_print=False, value_picker=XFormedAttributePicker(response_transformers=None)
    )
    BaseJSONSerializer._serialize_type_map = PATCHED if fast else ORIGINAL
    try:
        return serializer.serialize(dynamo_to_dict(result))
    finally:
        BaseJSONSerializer._serialize_type_map = PATCHED


class Answers(unittest.TestCase):
    def test_plain_items_are_written_exactly_as_moto_writes_them(self) -> None:
        for operation, result in RESULTS.items():
            with self.subTest(operation=operation):
                before = dict(stand_in_dynamodb.STATS)
                fast = serialize(operation, result, fast=True)
                copied = stand_in_dynamodb.STATS["attribute_maps_copied"] - before.get("attribute_maps_copied", 0)
                slow = serialize(operation, result, fast=False)
                self.assertEqual(fast["body"], slow["body"])
                self.assertEqual(fast["headers"], slow["headers"])
                self.assertEqual(fast["status_code"], slow["status_code"])
                if operation not in ("PutItem", "Scan"):
                    self.assertGreater(copied, 0, "the fast path was not taken")

    def test_binary_values_go_motos_way_and_come_out_base64(self) -> None:
        result = {"Item": binary_item()}
        before = stand_in_dynamodb.STATS["attribute_maps_walked"]
        fast = serialize("GetItem", result, fast=True)
        self.assertGreater(stand_in_dynamodb.STATS["attribute_maps_walked"], before)
        self.assertEqual(fast["body"], serialize("GetItem", result, fast=False)["body"])
        answer = json.loads(fast["body"])["Item"]
        self.assertEqual(base64.b64decode(answer["blob"]["B"]), b"\x00\x01binary\xff")
        self.assertEqual(base64.b64decode(answer["inner"]["M"]["b"]["B"]), b"in a map")



class Projections(unittest.TestCase):
    """Item.project's fast path (top-level names) against moto's own."""

    def sample(self):
        from moto.dynamodb.models.dynamo_type import Item

        attrs = {name: value.to_json() for name, value in item(7).items()}
        attrs.update({
            "cases.status.draft": {"N": "4"},  # a metric: one attribute whose name has dots
            "hours.total.lawyer.u1": {"N": "12.50"},
            "blob": {"B": base64.b64encode(b"\x00bytes").decode()},
            "x[1]": {"S": "a name that looks like a list element"},
        })
        attrs.update({f"m{i}": {"N": str(i)} for i in range(300)})
        return Item(DynamoType(attrs["PK"]), DynamoType(attrs["SK"]), attrs)

    def test_top_level_projections_give_what_moto_gives(self) -> None:
        from moto.dynamodb.models.dynamo_type import Item

        original = Item.project.__standin_original__
        it = self.sample()
        cases = [
            [["PK"], ["SK"]],
            [["cases.status.draft"], ["hours.total.lawyer.u1"], ["m7"], ["absent"]],
            [["meta"], ["history"], ["tags"], ["counts"], ["flag"], ["nothing"], ["blob"], ["emptymap"], ["emptylist"]],
            [["m1"], ["m1"], ["title"]],  # a name asked twice
            [["absent"]],
            [[f"m{i}"] for i in range(0, 300, 7)],
        ]
        for paths in cases:
            with self.subTest(paths=paths[:4]):
                before = stand_in_dynamodb.STATS["top_level_projections"]
                self.assertEqual(it.project(paths).to_json(), original(it, paths).to_json())
                self.assertEqual(stand_in_dynamodb.STATS["top_level_projections"], before + 1)

    def test_nested_paths_and_list_elements_go_motos_way(self) -> None:
        from moto.dynamodb.models.dynamo_type import Item

        original = Item.project.__standin_original__
        it = self.sample()
        for paths in ([["meta", "by"], ["PK"]], [["history[0]"]], [["x[1]"]], [["meta", "deep", "list[2]"], ["meta", "n"]]):
            with self.subTest(paths=paths):
                before = stand_in_dynamodb.STATS["top_level_projections"]
                self.assertEqual(it.project(paths).to_json(), original(it, paths).to_json())
                self.assertEqual(stand_in_dynamodb.STATS["top_level_projections"], before)


if __name__ == "__main__":
    unittest.main()
