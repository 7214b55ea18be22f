"""Makes moto's DynamoDB cost follow the call, as DynamoDB's does.

moto 5.x answers every Query by walking the whole table (`Table.all_items()`,
sorted), and backs up a TransactWriteItems by deep-copying every table it
names, once per item. On a table of a few thousand items a Query takes
hundreds of milliseconds and concurrent transactions take gigabytes. This
module, applied by `infra/stand_in.py` at start, changes where those calls get
their data from and nothing else:

* Table Query: moto's own `Table.query` runs unchanged, but its one call to
  `all_items()` sees only the items of the queried partition (already in the
  order moto then sorts them into, so its sort is one pass). Every item
  outside the partition is one moto's Query drops before it sorts, pages,
  counts or filters, so the answer is the same item for item, with the same
  LastEvaluatedKey, Count and ScannedCount, and the same errors. A Query
  still costs its whole partition (moto sorts and pages it), not its Limit.
* Index Query (GSI or LSI whose key has one HASH attribute): the same, with
  the items whose index hash attribute equals the queried value, taken from a
  map kept per table: index -> hash value -> item keys. The map is built on
  the first index Query of a table, then kept up to date on every write path
  (Table.put_item and Table.delete_item, which PutItem, BatchWriteItem,
  transactions, PartiQL and table import use; DynamoDBBackend.update_item,
  which changes items in place; a transaction's rollback). It is dropped and
  rebuilt when the table's items object or an index's key schema changes
  (restore from backup, UpdateTable), and it lives on the Table object, so a
  deleted table takes its map with it. moto 5.2.5 never removes TTL-expired
  items (TTL is only a setting it reports), so there is no removal to follow;
  the version pin below guarantees that stays so.
* TransactWriteItems: moto's code, except that instead of deep-copying each
  named table it copies each item just before the transaction writes it, and
  on cancellation puts those items back. Tables with a stream fall back to
  moto's own transaction (their stream records are part of the state moto
  rolls back).
* moto keeps every model instance it ever created in a class list for its
  dashboard (`/moto-api/data.json`), including each deep copy a Query or
  UpdateItem makes of an item, so its memory grows with every call. DynamoDB
  items are tracked weakly instead: the dashboard lists the items that exist.

* Answers: moto writes every answer through its model-driven serializer,
  which visits each attribute value as a structure of ten members and looks
  each member up under several spellings: about 0.07 ms per value, most of
  the time of any call that returns items (68% of a case list's). An
  attribute map whose values are plain DynamoDB JSON (S, N, BOOL, NULL, SS,
  NS, M, L: what moto's `dynamo_to_dict` gives) is copied as it is instead,
  which is what that serializer makes of it; a map holding anything else
  (binary values, which it base64-encodes) goes its way.

* Projections: moto's `Item.project` converts the whole item to plain
  Python once per projected name (a counter item of 300 metrics read for 40
  of them: 40 conversions of 300 values). When every projected path is one
  top-level name (what the project's ProjectionExpressions are), only those
  attributes are converted, each once, and the item is built from them as
  moto builds it; nested paths and list indexes go moto's way.

* Expressions (update and condition): parsed once per text (a condition
  per text, names and values), the update AST copied for each validator by
  unpickling instead of deepcopy, its three tree-only checks skipped once
  they passed for the same AST, names and table keys, and the validators'
  AST walk read each processor's constant map once per walk. UpdateItem
  copies the old item only for a table with a stream (the copy's only
  reader). Each patch below says why its answers are moto's.
* Requests: the handler class's method names are listed once per class.

Scan, GetItem, BatchGetItem and everything else stay moto's.

Everything here relies on moto's internals, so `check()` refuses any moto but
the pinned version and verifies the signatures, attributes and source of the
functions it replaces or relies on; `apply()` calls it first. Requests must be
serialised (infra/stand_in.py handles them one at a time under one lock).
"""

from __future__ import annotations

import copy
import hashlib
import inspect
import itertools
import json
import pickle
import re
import threading
import weakref
from collections import defaultdict
from typing import Any

MOTO_VERSION = "5.2.5"

# sha256 of inspect.getsource() of each moto function this module replaces or
# whose behaviour it mirrors, for MOTO_VERSION. Any difference means the
# patch was written against other code: refuse to start.
SOURCE_SHA256 = {
    "moto.dynamodb.models.table.Table.query": "002b4d00be6df07cf37f6cbe0132e5eb89455ae12a8e79b23db3fb492450f21e",
    "moto.dynamodb.models.table.Table.all_items": "c80d2ee3c896acd0cab6ca35aaeae3ab3fb65858933f8a3403d4e027c240f31d",
    "moto.dynamodb.models.table.Table.put_item": "de23933013ef842639046c19bcf7e418bce0474d810f6719368be4cedce11d47",
    "moto.dynamodb.models.table.Table.delete_item": "1594f7b07616c8cb8cdf0fbf58d6f54eeac83f25d7ac7b14e832a08e10efd8f9",
    "moto.dynamodb.models.table.Table.get_item": "b08e98fe37b7e5836afe03b010d637ef50df5dea6cbecd9cf8816eef326a21cd",
    "moto.dynamodb.models.table.Table.__init__": "a56181a75aa270051d49daeb6a1f55b3eba543e6f58b4391e46d24a7cf8bbc74",
    "moto.dynamodb.models.table.Table.sorted_items": "216dac1cd6b659d283e91006b809136623723efb90125b015e07052478724937",
    "moto.dynamodb.models.DynamoDBBackend.transact_write_items": "81db2cb7d94e39c90b3a2077e1f4bb41a449c558ef9b1b1e2910fdaa39978ad4",
    "moto.dynamodb.models.DynamoDBBackend.update_item": "218984588dd689a5de81678ce11e6a40d05c91e7b6c21b44c4ed4122fe74aa9f",
    "moto.dynamodb.models.DynamoDBBackend.update_table": "3fa85dce71a0cdcaac470626f5165b9e8317905f8651a0ce7dc1e1db1f9474ac",
    "moto.dynamodb.models.DynamoDBBackend.get_keys_value": "1f948797496ddc2cd4e4752e29e470d19ce757ca3406e07fed6bd90b331c1caa",
    "moto.dynamodb.models.DynamoDBBackend.get_item": "290b95c46b38bc5ac8079668e9c449bba9b6b26f4a2872d80ca262115023e189",
    "moto.dynamodb.models.DynamoDBBackend.execute_statement": "6579d0ba9df2be56634bad07a48f678a04135d012f90a4bde80874b2590c397a",
    "moto.dynamodb.models.table.RestoredTable.__init__": "607d3a9baf82a6047ace9d996b4a073689fdfbcb14011e949b80f3e9ef71498a",
    "moto.dynamodb.models.table.RestoredPITTable.__init__": "c0c63032c8e6ba3c4d9644e03e08bb0d0e0094d53f5ddce92c89cbc79a8656dc",
    "moto.dynamodb.models.dynamo_type.DynamoType.__hash__": "4d37bb816dede3221cef85255e0338002372cbad3899909b4b2a7532f7197f05",
    "moto.dynamodb.models.dynamo_type.DynamoType.__eq__": "48f12362c49f00c1138f550163b14b9c2f3bf0a50f0f907f426510a0417052c1",
    "moto.dynamodb.models.dynamo_type.Item.__init__": "d9c12b62cb921831aab9b2eb22ac24fbd600689064a0219ae3ffbe057ae4be74",
    # The item size check Item.__init__'s inserts make, which item_init makes once an attribute.
    "moto.dynamodb.models.dynamo_type.LimitedSizeDict.__setitem__": "d979580fdbe14f79f3216564e1385c4b3485db82bc88193326c467a037331e81",
    "moto.dynamodb.models.dynamo_type.Item.__deepcopy__": "7621d16ad7ce49d93f1da0ff2a799ec0ca57b34d30249ef65bc2557c2acc5168",
    "moto.core.common_models.BaseModel.__new__": "08cf0ef20e88029a2eb91949492ce3281001a34b98143db186239962ad379eec",
    # The answers' serializer: the attribute-map fast path stands in for these.
    "moto.core.serialize.BaseJSONSerializer._serialize_type_map": "faa32d1fa9a8bfc9db0984b7973a5cc3297d35a2df33124748949b0908f6b6a9",
    "moto.core.serialize.BaseJSONSerializer._serialize_type_structure": "36873909cd0aeb4defa91cc9912c6e90a62d7d92ced6150ac7de92fd10a81967",
    "moto.core.serialize.BaseJSONSerializer._serialize_type_list": "f87b14fe9166e099846349860a5e3c9d9984939d82ed0f67de07ad12e790cd26",
    "moto.core.serialize.BaseJSONSerializer._serialize_type_string": "44954e02145012baee50de6592411c1376aad480ea3440a3b3ab6ce932bbf78d",
    "moto.core.serialize.ResponseSerializer._serialize_type_structure": "f9b47068f40ce489e55e7a0bf78accec38597d27168dc3d095ac2fc18312d4a8",
    "moto.core.serialize.ResponseSerializer._serialize_structure_member": "437fdce43aa5ac844fb5fe22865b90d228b875b6b1787dc6bfdccad91968b3c0",
    "moto.core.serialize.ResponseSerializer._serialize": "4eccca5bf02593efd2e425f7e1659871406ee6734ec1084ccd452885b7e89052",
    "moto.core.serialize.ResponseSerializer._default_serialize": "25ce8ddbb1a991c029a745f87eeaa360b697b69ba7295fb74143859a5233afb7",
    "moto.core.serialize.ResponseSerializer.get_serialized_name": "2c23dcac85ccc3966b11d9d96e676eccd5c0d61818ca68b93b0f019839fb2767",
    "moto.dynamodb.models.utilities.dynamo_to_dict": "80f600124c13ddcb132c02448abeefffd2b43b353c7fcedaa2fa7ca67b3107c4",
    # Projections: the top-level fast path stands in for these.
    "moto.dynamodb.models.dynamo_type.Item.project": "f411e6d8b56886f45f401edc20c2fd6d4e671136d9cf7ff21c434479b1e84a79",
    "moto.dynamodb.models.utilities.find_nested_key": "66e7b1b00236a8118652236311568ae6ee7eea37cb03b0bf1de295578a3ce7d4",
    "moto.dynamodb.models.dynamo_type.Item.to_regular_json": "866aafe440d99a2565adeae8a9fec8263e2657c1d4c4e4312f6b9a911198d3fd",
    # Parsed expressions kept by their text: the parsers, the validator that
    # copies the update AST, and every caller of the parsers.
    "moto.dynamodb.parsing.expressions.UpdateExpressionParser.make": "2c00ed96d6e191f243b449166e75bfb38f307b2e19405bc0981847061e0dbee3",
    "moto.dynamodb.parsing.validators.Validator.__init__": "9489b532dd0fb359e273711c1a67971f1b73af47ddbaa91868e9cc42a26ddbb3",
    "moto.dynamodb.parsing.validators.Validator.validate": "5a99f0d36c7b7b8ebfa3e745203515f57a9b99109cfca55a039153a8f6b081c6",
    "moto.dynamodb.comparisons.ConditionExpressionParser.__init__": "4a3f092d6b0f1a260976048a99937788a7387015d1f0c7b0fc6360cf582508f0",
    "moto.dynamodb.comparisons.ConditionExpressionParser.parse": "5c9b63c5f49ed5d5d644eb0ac7422fb3c2ac4bbd310374f4161686bc4e10c453",
    "moto.dynamodb.comparisons.get_filter_expression": "0bb9e2d345c7f17fe70bed6b07659499eb35cf8f7421ddc3b82c036508ca83aa",
    "moto.dynamodb.comparisons.AttributeValue.__init__": "e62e733b27c0da311857ede30fd76c0b44e9335d82597d450823a8e6f5bcb075",
    "moto.dynamodb.comparisons.AttributeValue.expr": "e151b22752ff7d8f308282353bc35c8c2a69377153a5af29b18e5b50acc573bd",
    "moto.dynamodb.responses.DynamoHandler.update_item": "638893af1afd43d274f3788d61ac13b447729de915c6f5ad3bbf008b92dd8e80",
    # The AST traversal every validator processor runs, and what it calls.
    "moto.dynamodb.parsing.ast_nodes.DepthFirstTraverser.traverse": "c78f8583f1961be7000602ba3b9fcb6c8f4a03eb61c09de2fc0defa40157c72d",
    "moto.dynamodb.parsing.ast_nodes.DepthFirstTraverser.traverse_node_recursively": "d7f01d9b45cf9f64ac84751ec4c8cab3114e7c179350eb1b81ffe5f0a114aa78",
    "moto.dynamodb.parsing.ast_nodes.DepthFirstTraverser.process": "58328ec7c2f9b1f96244bf498dd0ca6d91e2fd83ea57a82f6190997b8d1f9d51",
    "moto.dynamodb.parsing.ast_nodes.DepthFirstTraverser.nodes_to_be_processed": "1c2c84c8097e35172d289d2cc30029d2d1c518f7680232a3f3c9f09e56a5e9b0",
    "moto.dynamodb.parsing.ast_nodes.DepthFirstTraverser.pre_processing_of_child": "7081127933bb856d0577b7b36e4bb5107e74c898d3b52ae99e2d071984250211",
    # Whole modules: every processor's _processing_map (constant maps) and the AST classes.
    "moto.dynamodb.parsing.validators": "345c1740c0c674a72a5ed56f5ea01ba385ccb69a1bf21f8c134b389d9b41a3e3",
    "moto.dynamodb.parsing.ast_nodes": "ab97413e907e4054c861e7c91b5f1cde6d56a702ddc58b720d275caec351cfe4",
    # The action lookup every request makes.
    "moto.core.utils.method_names_from_class": "9dbac89d082b655fee902c450e69de9dbadf9699ad06411298494984b55138c3",
    "moto.core.responses.BaseResponse.call_action": "26076963fd17fd1a40be642032b5a8d90f159c19d01b80a5f0b0c839770ee0d6",
    "moto.dynamodb.responses.DynamoHandler.transact_write_items": "61c163fff213f33a39317a17fda194a9c1e800992421575d2080f4500bf45372",
}

# Parameter names of the functions called or wrapped here.
SIGNATURES = {
    "moto.dynamodb.models.table.Table.query": [
        "self", "hash_key", "range_comparison", "range_objs", "limit",
        "exclusive_start_key", "scan_index_forward", "projection_expressions",
        "index_name", "consistent_read", "filter_expression",
        "hash_key_conditions", "range_key_conditions", "filter_kwargs",
    ],
    "moto.dynamodb.models.table.Table.all_items": ["self"],
    "moto.dynamodb.models.table.Table.put_item": [
        "self", "item_attrs", "expected", "condition_expression",
        "expression_attribute_names", "expression_attribute_values",
        "overwrite", "return_values_on_condition_check_failure",
    ],
    "moto.dynamodb.models.table.Table.delete_item": ["self", "hash_key", "range_key"],
    "moto.dynamodb.models.table.Table.get_item": [
        "self", "hash_key", "range_key", "projection_expression",
    ],
    "moto.dynamodb.models.DynamoDBBackend.transact_write_items": ["self", "transact_items"],
    "moto.dynamodb.models.DynamoDBBackend.update_item": [
        "self", "table_name", "key", "update_expression",
        "expression_attribute_names", "expression_attribute_values",
        "attribute_updates", "expected", "condition_expression",
        "return_values_on_condition_check_failure",
    ],
    "moto.dynamodb.models.DynamoDBBackend.update_table": [
        "self", "name", "attr_definitions", "global_index", "throughput",
        "billing_mode", "stream_spec", "deletion_protection_enabled",
        "warm_throughput",
    ],
    "moto.dynamodb.models.DynamoDBBackend.get_keys_value": ["self", "table", "keys"],
    "moto.dynamodb.models.DynamoDBBackend.get_item": [
        "self", "table_name", "keys", "projection_expressions",
    ],
    "moto.dynamodb.models.DynamoDBBackend.put_item": [
        "self", "table_name", "item_attrs", "expected", "condition_expression",
        "expression_attribute_names", "expression_attribute_values",
        "overwrite", "return_values_on_condition_check_failure",
    ],
    "moto.dynamodb.models.DynamoDBBackend.delete_item": [
        "self", "table_name", "key", "expression_attribute_names",
        "expression_attribute_values", "condition_expression",
        "return_values_on_condition_check_failure",
    ],
    "moto.dynamodb.models.DynamoDBBackend.get_table": ["self", "table_name"],
    "moto.dynamodb.models.table.Table.all_indexes": ["self"],
    "moto.core.serialize.BaseJSONSerializer._serialize_type_map": ["self", "serialized", "value", "shape", "key"],
    "moto.dynamodb.models.dynamo_type.Item.project": ["self", "projection_expressions"],
}


class PatchMismatch(RuntimeError):
    """moto is not the code this patch was written against."""


def _resolve(dotted: str) -> Any:
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(dotted)


def _unwrap(fn: Any) -> Any:
    return getattr(fn, "__standin_original__", fn)


def source_digest(dotted: str) -> str:
    src = inspect.getsource(_unwrap(_resolve(dotted)))
    return hashlib.sha256(src.encode("utf-8")).hexdigest()


def check() -> None:
    """Raises PatchMismatch unless moto is exactly what this patch expects."""
    import moto

    problems: list[str] = []
    if moto.__version__ != MOTO_VERSION:
        problems.append(f"moto is {moto.__version__}, the patch is written for {MOTO_VERSION}")
    for dotted, params in SIGNATURES.items():
        try:
            got = list(inspect.signature(_unwrap(_resolve(dotted))).parameters)
        except Exception as e:  # noqa: BLE001 - report whatever is missing
            problems.append(f"{dotted}: {type(e).__name__}: {e}")
            continue
        if got != params:
            problems.append(f"{dotted}: parameters {got}, expected {params}")
    for dotted, want in SOURCE_SHA256.items():
        try:
            got = source_digest(dotted)
        except Exception as e:  # noqa: BLE001
            problems.append(f"{dotted}: {type(e).__name__}: {e}")
            continue
        if got != want:
            problems.append(f"{dotted}: source changed (sha256 {got[:12]}…, expected {want[:12]}…)")
    # Attributes the patch reads on live objects.
    try:
        from moto.dynamodb.models.dynamo_type import DynamoType, Item
        from moto.dynamodb.models.table import Table

        t = Table(
            "standin-check", account_id="123456789012", region="us-east-1",
            schema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
            attr=[{"AttributeName": n, "AttributeType": "S"} for n in ("PK", "SK", "G")],
            global_indexes=[{
                "IndexName": "G", "KeySchema": [{"AttributeName": "G", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }],
        )
        for attr in ("items", "hash_key_attr", "range_key_attr", "stream_shard", "global_indexes", "indexes"):
            if not hasattr(t, attr):
                problems.append(f"Table has no attribute {attr!r}")
        if type(getattr(t, "items", None)) is not defaultdict:
            problems.append("Table.items is not a defaultdict")
        it = Item(DynamoType({"S": "a"}), DynamoType({"S": "b"}), {"PK": {"S": "a"}, "SK": {"S": "b"}})
        for attr in ("hash_key", "range_key", "attrs"):
            if not hasattr(it, attr):
                problems.append(f"Item has no attribute {attr!r}")
        for attr in ("name", "schema"):
            if not hasattr(t.global_indexes[0], attr):
                problems.append(f"GlobalSecondaryIndex has no attribute {attr!r}")
        # The traversal remembers isinstance answers by type: no AST class
        # may decide them itself or have virtual subclasses.
        import abc

        from moto.dynamodb.parsing import ast_nodes

        for c in vars(ast_nodes).values():
            if isinstance(c, type) and issubclass(c, ast_nodes.Node):
                if "__instancecheck__" in vars(c) or "__subclasshook__" in vars(c) or abc._get_dump(c)[0]:
                    problems.append(f"{c.__name__} decides isinstance itself or has registered subclasses")
        if not isinstance(getattr(Item, "instances_tracked", None), list):
            problems.append("Item.instances_tracked is not a list")
    except Exception as e:  # noqa: BLE001
        problems.append(f"building a sample table failed: {type(e).__name__}: {e}")
    if problems:
        raise PatchMismatch(
            "the stand-in's DynamoDB patch (infra/stand_in_dynamodb.py) does not match the installed moto:\n  - "
            + "\n  - ".join(problems)
            + f"\nInstall moto[server]=={MOTO_VERSION} (infra/lib.sh ensure_venv does), "
            "or re-check the patch against the new moto source and update it."
        )


# --------------------------------------------------------------------------
# Counters, for /_stand_in/status (tests check the fast paths are taken).

STATS: dict[str, int] = defaultdict(int)


# --------------------------------------------------------------------------
# Index maps.


class _IndexMap:
    __slots__ = ("attr", "schema", "parts", "where", "odd")

    def __init__(self, attr: str, schema: tuple) -> None:
        self.attr = attr
        self.schema = schema
        self.parts: dict[Any, dict[tuple, None]] = {}  # hash value -> {item key: None}
        self.where: dict[tuple, Any] = {}  # item key -> hash value
        self.odd: dict[tuple, None] = {}  # item keys whose value is not hashable (a list, map or set)

    def drop(self, key: tuple) -> None:
        if key in self.odd:
            del self.odd[key]
            return
        old = self.where.pop(key, None)
        if old is not None:
            part = self.parts[old]
            del part[key]
            if not part:
                del self.parts[old]

    def add(self, key: tuple, item: Any) -> None:
        value = item.attrs.get(self.attr)
        if value is None:
            return
        try:
            hash(value)
        except TypeError:
            self.odd[key] = None
            return
        self.parts.setdefault(value, {})[key] = None
        self.where[key] = value

    def keys_for(self, value: Any) -> list[tuple]:
        return list(self.parts.get(value, ())) + list(self.odd)


class _GsiMaps:
    """Per-table maps. Derived data: a copy (moto's Backup deep-copies tables)
    or a saved state gets an empty one, rebuilt on the next index Query."""

    def __init__(self) -> None:
        self.items_ref: Any = None
        self.indexes: dict[str, _IndexMap] | None = None

    def __reduce__(self) -> tuple:
        return (_GsiMaps, ())


def _schema_sig(index: Any) -> tuple:
    return tuple((k["AttributeName"], k["KeyType"]) for k in index.schema)


def _hash_attr(index: Any) -> str | None:
    hashes = [k["AttributeName"] for k in index.schema if k["KeyType"] == "HASH"]
    return hashes[0] if len(hashes) == 1 else None


def _iter_stored(table: Any):
    """(key, item) of every stored item, without creating partitions."""
    from moto.dynamodb.models.dynamo_type import Item

    if table.range_key_attr is not None:
        for h, part in table.items.items():
            if isinstance(part, dict):
                for r, item in part.items():
                    if isinstance(item, Item):
                        yield (h, r), item
    else:
        for h, item in table.items.items():
            if isinstance(item, Item):
                yield (h, None), item


def _stored(table: Any, h: Any, r: Any) -> Any:
    from moto.dynamodb.models.dynamo_type import Item

    try:
        part = table.items.get(h)
        if table.range_key_attr is not None:
            item = part.get(r) if isinstance(part, dict) else None
        else:
            item = part
    except TypeError:  # unhashable key
        return None
    return item if isinstance(item, Item) else None


def _maps(table: Any) -> _GsiMaps:
    maps = table.__dict__.get("_standin_gsi")
    if not isinstance(maps, _GsiMaps):
        maps = _GsiMaps()
        table.__dict__["_standin_gsi"] = maps
    return maps


def _index_map(table: Any, index: Any) -> _IndexMap | None:
    """The current map of `index`, (re)building the table's maps if needed."""
    maps = _maps(table)
    current = maps.indexes is not None and maps.items_ref is table.items
    imap = maps.indexes.get(index.name) if current else None
    if imap is None or imap.schema != _schema_sig(index):
        STATS["index_map_builds"] += 1
        indexes: dict[str, _IndexMap] = {}
        for idx in table.all_indexes():
            attr = _hash_attr(idx)
            if attr is not None:
                indexes[idx.name] = _IndexMap(attr, _schema_sig(idx))
        for key, item in _iter_stored(table):
            for m in indexes.values():
                m.add(key, item)
        maps.indexes, maps.items_ref = indexes, table.items
        imap = indexes.get(index.name)
    return imap


def _invalidate(table: Any) -> None:
    maps = table.__dict__.get("_standin_gsi")
    if isinstance(maps, _GsiMaps):
        maps.indexes, maps.items_ref = None, None


def _reindex(table: Any, h: Any, r: Any) -> None:
    """Brings the maps up to date for the item stored (or not) at (h, r)."""
    maps = table.__dict__.get("_standin_gsi")
    if not isinstance(maps, _GsiMaps) or maps.indexes is None:
        return
    if maps.items_ref is not table.items:
        _invalidate(table)
        return
    key = (h, r)
    try:
        hash(key)
    except TypeError:
        _invalidate(table)
        return
    item = _stored(table, h, r)
    for m in maps.indexes.values():
        m.drop(key)
        if item is not None:
            m.add(key, item)


# --------------------------------------------------------------------------
# Query: moto's Table.query over the queried partition only.

_restrict = threading.local()


def _all_items_order(items: list) -> list:
    # The same order Table.all_items() returns (its sort key, verbatim).
    return sorted(items, key=lambda x: (x.hash_key, x.range_key) if x.range_key else x.hash_key)


def _presorted(items: list, attrs: list[str | None]) -> list:
    """`items` in the order moto's Query is about to sort them into (by
    `attrs`, compared as moto compares them: by cast value), so that its
    sort is one linear pass. Sorting on plain Python values costs a fraction
    of moto's DynamoType comparisons. Only speed depends on this order (moto
    sorts again); if the values do not compare, all_items() order it is."""
    def sort_key(item: Any) -> tuple:
        try:
            return (0, tuple(item.attrs[a].cast_value for a in attrs if a is not None))
        except KeyError:  # not in the index: moto drops it before sorting
            return (1, ())

    try:
        return sorted(items, key=sort_key)
    except TypeError:
        return _all_items_order(items)


def _index_sort_attrs(table: Any, index: Any) -> list[str | None]:
    """The attributes moto's Query sorts an index's items by (its
    _generate_attr_to_sort_by for the hash_attrs/range_attrs it builds)."""
    hashes = [k["AttributeName"] for k in index.schema if k["KeyType"] == "HASH"]
    ranges = [k["AttributeName"] for k in index.schema if k["KeyType"] == "RANGE"]
    if not ranges:
        ranges = [table.range_key_attr if table.range_key_attr else table.hash_key_attr]
    return [*hashes, *ranges, table.hash_key_attr, table.range_key_attr]


def _candidates(table: Any, bound: inspect.BoundArguments) -> list | None:
    """The items moto's Query can possibly return, or None to let moto walk
    the whole table (cases this module does not specialise)."""
    from moto.dynamodb.models.dynamo_type import DynamoType, Item

    args = bound.arguments
    index_name = args.get("index_name")
    if index_name:
        indexes = {i.name: i for i in table.all_indexes()}
        index = indexes.get(index_name)
        if index is None:
            return None
        attr = _hash_attr(index)
        if attr is None:
            return None
        conditions: dict[str, Any] = {}
        for name, value in args.get("hash_key_conditions") or []:
            conditions[name] = value
        value = conditions.get(attr)
        if type(value) is not DynamoType:
            return None
        try:
            hash(value)
        except TypeError:
            return None
        imap = _index_map(table, index)
        if imap is None:
            return None
        found = [_stored(table, h, r) for h, r in imap.keys_for(value)]
        STATS["index_queries"] += 1
        return _presorted([i for i in found if i is not None], _index_sort_attrs(table, index))
    hash_key = args.get("hash_key")
    if type(hash_key) is not DynamoType:
        return None
    try:
        part = table.items.get(hash_key)
    except TypeError:
        return None
    if table.range_key_attr is not None:
        found = list(part.values()) if isinstance(part, dict) else []
    else:
        found = [part]
    STATS["table_queries"] += 1
    return _presorted([i for i in found if isinstance(i, Item)], [table.range_key_attr])


# --------------------------------------------------------------------------
# Parsed expressions, kept by their text.
#
# A service sends the same few expressions again and again; moto parses each
# one anew on every use (an UpdateItem parses its update expression twice and
# its condition twice, a transaction's Update item more). Parsing depends on
# nothing but the text (and, for a condition, the names and values it
# resolves while parsing), so the results are kept here. Failures are not
# kept: a bad expression is parsed, and fails, every time, as before.

_CACHE_LIMIT = 4096  # distinct expressions; on overflow the cache starts over


class _UpdateAst:
    """An update expression's AST as the parser made it, and its pickle, from
    which each validator gets its own copy (moto's validator deep-copies the
    AST it is given, then rewrites the copy; unpickling makes the same copy:
    the nodes are plain objects without __deepcopy__ or __reduce__ of their
    own, so copy and pickle both rebuild them from their __dict__)."""

    __slots__ = ("tree", "blob")

    def __init__(self, tree: Any, blob: bytes) -> None:
        self.tree, self.blob = tree, blob


_UPDATE_ASTS: dict[str, _UpdateAst] = {}
_UPDATE_AST_BY_ID: dict[int, _UpdateAst] = {}  # id(tree) -> entry (the entry holds the tree alive)
_CONDITIONS: dict[str, tuple[Any, list[str], list[str]]] = {}


def _cached_update_ast(orig_make: Any, cls: Any, expression_str: Any) -> Any:
    entry = _UPDATE_ASTS.get(expression_str) if type(expression_str) is str else None
    if entry is not None:
        STATS["update_expressions_reused"] += 1
        return entry.tree
    tree = orig_make(cls, expression_str)
    if type(expression_str) is not str:
        return tree
    try:
        blob = pickle.dumps(tree, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - not picklable: moto's own deepcopy each time
        return tree
    if len(_UPDATE_ASTS) >= _CACHE_LIMIT:
        _UPDATE_ASTS.clear()
        _UPDATE_AST_BY_ID.clear()
    entry = _UpdateAst(tree, blob)
    _UPDATE_ASTS[expression_str] = entry
    _UPDATE_AST_BY_ID[id(tree)] = entry
    STATS["update_expressions_parsed"] += 1
    return tree


def _copy_update_ast(expression: Any) -> Any:
    """What moto's Validator does with its AST (`deepcopy(expression)`), by
    unpickling when the AST is a kept one."""
    entry = _UPDATE_AST_BY_ID.get(id(expression))
    if entry is not None and entry.tree is expression:
        return pickle.loads(entry.blob)
    return copy.deepcopy(expression)


# The first three processors of moto's UpdateExpressionValidator
# (ActionCountValidator, OverlappingPathsValidator, UpdateHashRangeKeyValidator)
# only read the AST as parsed, the expression's names and the table's key
# attribute names, and return every node unchanged: they either pass or
# raise. Once they passed for (AST, names, key attributes), they pass again:
# later validations of the same three skip them. Their failures are not kept.
_TREE_CHECKS_PASSED: set[tuple] = set()
_TREE_CHECKS = 3


def _tree_checks_key(expression: Any, names: Any, table: Any) -> tuple | None:
    entry = _UPDATE_AST_BY_ID.get(id(expression))
    if entry is None or entry.tree is not expression:
        return None
    try:
        frozen_names = json.dumps(names, separators=(",", ":"), allow_nan=False)
        key_attrs = tuple(table.table_key_attrs)
    except (TypeError, ValueError, AttributeError):
        return None
    if not all(type(a) is str for a in key_attrs):
        return None
    return (entry.blob, frozen_names, key_attrs)


def _validate(self: Any, tree_checks: tuple) -> Any:
    """moto's Validator.validate (its processors in order over the copy),
    skipping the three tree-only checks when they passed before."""
    key = self.__dict__.get("_standin_tree_checks")
    processors = self.processors
    if key is None or tuple(type(p) for p in processors[:_TREE_CHECKS]) != tree_checks:
        n = self.node_to_validate
        for processor in processors:
            n = processor.traverse(n)
        return n
    n = self.node_to_validate
    if key in _TREE_CHECKS_PASSED:
        STATS["tree_checks_skipped"] += 1
    else:
        for processor in processors[:_TREE_CHECKS]:
            n = processor.traverse(n)
        if len(_TREE_CHECKS_PASSED) >= _CACHE_LIMIT:
            _TREE_CHECKS_PASSED.clear()
        _TREE_CHECKS_PASSED.add(key)
    for processor in processors[_TREE_CHECKS:]:
        n = processor.traverse(n)
    return n


def _condition_key(parser: Any) -> str | None:
    try:
        return json.dumps(
            [parser.condition_expression, parser.expression_attribute_names, parser.expression_attribute_values],
            separators=(",", ":"), allow_nan=False,
        )
    except (TypeError, ValueError):  # not plain JSON: parse as moto does
        return None


def _cached_condition(orig_parse: Any, parser: Any) -> Any:
    """ConditionExpressionParser.parse, kept by (expression, names, values).
    The Op tree it returns is only ever evaluated (`expr`, `get_type`: they
    read it and build new values), and the kept one is parsed from a private
    copy of the names and values (the key, read back, in the request's key
    order), so no request's dicts are shared with a later request's tree.
    Names and values come from the request's JSON; anything the key would not
    give back equal (a non-string key, a tuple) is parsed as moto does."""
    if not parser.condition_expression or type(parser.condition_expression) is not str:
        return orig_parse(parser)
    key = _condition_key(parser)
    if key is None:
        return orig_parse(parser)
    hit = _CONDITIONS.get(key)
    if hit is None:
        expr, names, values = json.loads(key)
        if [expr, names, values] != [
            parser.condition_expression, parser.expression_attribute_names, parser.expression_attribute_values,
        ]:
            return orig_parse(parser)
        private = type(parser)(expr, names, values)
        op = orig_parse(private)
        hit = (op, list(private.expr_attr_names_found), list(private.expr_attr_values_found))
        if len(_CONDITIONS) >= _CACHE_LIMIT:
            _CONDITIONS.clear()
        _CONDITIONS[key] = hit
        STATS["conditions_parsed"] += 1
    else:
        STATS["conditions_reused"] += 1
    op, names_found, values_found = hit
    parser.expr_attr_names_found.extend(names_found)
    parser.expr_attr_values_found.extend(values_found)
    return op


# --------------------------------------------------------------------------
# The validators' AST traversal.

_NODE_TYPE_CHECKS: dict[tuple, bool] = {}


def _is_instance(cls: type, types: Any) -> bool:
    """isinstance by the node's type, remembered: moto's AST classes use
    ABCMeta, whose isinstance is a Python call each time. The answer for a
    type never changes: moto registers no virtual subclasses of them and no
    class defines __instancecheck__ or __subclasshook__ (check() verifies)."""
    key = (cls, types)
    hit = _NODE_TYPE_CHECKS.get(key)
    if hit is None:
        hit = _NODE_TYPE_CHECKS[key] = issubclass(cls, types)
    return hit


def _traverse(self: Any, node: Any, node_class: type, plain_process: bool) -> Any:
    """moto's DepthFirstTraverser.traverse (traverse_node_recursively), with
    the processing map read once per traversal instead of twice per node:
    every processor's _processing_map returns the same classes and bound
    methods each time (it builds a constant dict), so reading it once gives
    the same order and the same functions."""
    pmap = self._processing_map()
    types = tuple(k for k in pmap.keys())
    processors = tuple(pmap.items())
    pre = None if plain_process else self.pre_processing_of_child

    def recurse(node: Any, child_id: int = -1) -> Any:
        if _is_instance(type(node), node_class):
            parent_node = node.parent
            if node.children is not None:
                for i, child_node in enumerate(node.children):
                    if pre is not None:
                        pre(node, i)
                    recurse(child_node, i)
            if _is_instance(type(node), types):
                processed = None
                for class_key, processor in processors:
                    if _is_instance(type(node), class_key):
                        processed = processor(node)
                        break
                node = processed
                node.parent = parent_node
                if parent_node:
                    parent_node.children[child_id] = node
        return node

    return recurse(node)


# --------------------------------------------------------------------------
# Weak tracking of DynamoDB items for moto's dashboard.


class _WeakTracked:
    """Stands in for a model class's `instances_tracked` list: remembers
    instances weakly, iterates the live ones in creation order."""

    def __init__(self) -> None:
        self._live: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
        self._n = itertools.count()

    def append(self, instance: Any) -> None:
        self._live[next(self._n)] = instance

    def __iter__(self):
        return iter(list(self._live.values()))

    def __len__(self) -> int:
        return len(self._live)


# --------------------------------------------------------------------------
# apply()

_applied = False


def _plain_attribute_value(value: Any) -> Any:
    """The DynamoDB JSON moto's serializer writes for one attribute value of
    `dynamo_to_dict`'s making, or None where it would do more than copy it
    (binary values, unknown members, values of another type than the
    model's). Strings and numbers are str, BOOL and NULL bool, sets lists of
    str; members that are None are left out, as it leaves them out."""
    if type(value) is not dict:
        return None
    out = {}
    for member, v in value.items():
        if v is None:
            continue
        if member in ("S", "N"):
            if type(v) is not str:
                return None
            out[member] = v
        elif member in ("BOOL", "NULL"):
            if type(v) is not bool:
                return None
            out[member] = v
        elif member in ("SS", "NS"):
            if type(v) is not list or any(type(x) is not str for x in v):
                return None
            out[member] = list(v)
        elif member == "M":
            inner = _plain_attribute_map(v)
            if inner is None:
                return None
            out[member] = inner
        elif member == "L":
            if type(v) is not list:
                return None
            items = [_plain_attribute_value(x) for x in v]
            if any(x is None for x in items):
                return None
            out[member] = items
        else:
            return None
    return out


def _plain_attribute_map(value: Any) -> dict | None:
    """An attribute map (item, key) as [_plain_attribute_value] gives each value, or None."""
    if type(value) is not dict:
        return None
    out = {}
    for name, v in value.items():
        if v is None:
            continue  # the serializer's structure member would leave it out too
        plain = _plain_attribute_value(v)
        if plain is None:
            return None
        out[name] = plain
    return out


def apply() -> None:
    """Checks moto, then patches it (idempotent)."""
    global _applied
    if _applied:
        return
    check()

    from moto.dynamodb import models as backend_module
    from moto.dynamodb.comparisons import (
        ConditionExpressionParser,
        create_condition_expression_parser,
        get_expected,
        get_filter_expression,
    )
    from moto.dynamodb.parsing.executors import UpdateExpressionExecutor
    from moto.dynamodb.parsing.expressions import UpdateExpressionParser  # type: ignore[attr-defined]
    from moto.dynamodb.parsing.validators import (
        ActionCountValidator,
        OverlappingPathsValidator,
        UpdateExpressionValidator,
        UpdateHashRangeKeyValidator,
        Validator,
    )
    from moto.dynamodb.exceptions import (
        ConditionalCheckFailed,
        ItemSizeTooLarge,
        ItemSizeToUpdateTooLarge,
        MockValidationException,
        MultipleTransactionsException,
        TooManyTransactionsException,
        TransactionCanceledException,
        TransactWriteSingleOpException,
    )
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.dynamo_type import DynamoType, Item
    from moto.dynamodb.models.table import Table

    orig_query = Table.query
    orig_all_items = Table.all_items
    orig_put_item = Table.put_item
    orig_delete_item = Table.delete_item
    orig_update_item = DynamoDBBackend.update_item
    orig_update_table = DynamoDBBackend.update_table
    orig_transact = DynamoDBBackend.transact_write_items
    query_sig = inspect.signature(orig_query)
    update_item_sig = inspect.signature(orig_update_item)
    update_table_sig = inspect.signature(orig_update_table)

    def all_items(self: Table) -> list:
        only = getattr(_restrict, "only", None)
        if only is not None and only[0] is self:
            return list(only[1])
        return orig_all_items(self)

    def query(self: Table, *args: Any, **kwargs: Any) -> Any:
        try:
            bound = query_sig.bind(self, *args, **kwargs)
        except TypeError:
            bound = None
        found = _candidates(self, bound) if bound is not None else None
        if found is None:
            STATS["whole_table_queries"] += 1
            return orig_query(self, *args, **kwargs)
        outer = getattr(_restrict, "only", None)
        _restrict.only = (self, found)
        try:
            return orig_query(self, *args, **kwargs)
        finally:
            _restrict.only = outer

    def put_item(self: Table, item_attrs: Any, *args: Any, **kwargs: Any) -> Any:
        key = None
        try:
            h = DynamoType(item_attrs[self.hash_key_attr])
            r = DynamoType(item_attrs[self.range_key_attr]) if self.range_key_attr is not None else None
            key = (h, r)
        except Exception:  # noqa: BLE001 - moto reports the malformed item itself
            pass
        try:
            return orig_put_item(self, item_attrs, *args, **kwargs)
        finally:
            if key is not None:
                _reindex(self, *key)

    def delete_item(self: Table, hash_key: Any, range_key: Any) -> Any:
        # Without a range key moto pops the whole hash entry (a partition on a
        # table with a range key): follow every key that was under it.
        keys: list[tuple] = []
        try:
            if range_key:
                keys = [(hash_key, range_key)]
            elif self.range_key_attr is not None:
                part = self.items.get(hash_key)
                keys = [(hash_key, r) for r in part] if isinstance(part, dict) else []
            else:
                keys = [(hash_key, None)]
        except TypeError:
            _invalidate(self)
        try:
            return orig_delete_item(self, hash_key, range_key)
        finally:
            for key in keys:
                _reindex(self, *key)

    # moto's DynamoDBBackend.update_item (5.2.5) with one change: the deep
    # copy of the item before the update ("orig_item") is made only for a
    # table with a stream, its only reader (the stream record of the old
    # image). Without a stream nothing reads it, so skipping it changes no
    # answer. (Its expressions come from the caches above, through moto's
    # own parsers.) Marked "# standin:" below.
    def moto_update_item(
        self: DynamoDBBackend,
        table_name: str,
        key: dict[str, dict[str, Any]],
        update_expression: str,
        expression_attribute_names: dict[str, Any],
        expression_attribute_values: dict[str, Any],
        attribute_updates: dict[str, Any] | None = None,
        expected: dict[str, Any] | None = None,
        condition_expression: str | None = None,
        return_values_on_condition_check_failure: str | None = None,
    ) -> Item:
        table = self.get_table(table_name)

        # Support spaces between operators in an update expression
        # E.g. `a = b + c` -> `a=b+c`
        if update_expression:
            # Parse expression to get validation errors
            update_expression_ast = UpdateExpressionParser.make(update_expression)
            update_expression = re.sub(r"\s*([=\+-])\s*", "\\1", update_expression)

        if all([table.hash_key_attr in key, table.range_key_attr in key]):
            # Covers cases where table has hash and range keys, ``key`` param
            # will be a dict
            hash_value = DynamoType(key[table.hash_key_attr])
            range_value = DynamoType(key[table.range_key_attr])  # type: ignore[index]
        elif table.hash_key_attr in key:
            # Covers tables that have a range key where ``key`` param is a dict
            hash_value = DynamoType(key[table.hash_key_attr])
            range_value = None
        else:
            # Covers other cases
            hash_value = DynamoType(key)
            range_value = None

        item = table.get_item(hash_value, range_value)
        # standin: the old image is copied only for the stream that reads it.
        orig_item = copy.deepcopy(item) if table.stream_shard is not None else None

        if not expected:
            expected = {}

        if not get_expected(expected).expr(item):
            raise ConditionalCheckFailed
        condition_expression_parser = create_condition_expression_parser(
            condition_expression,
            expression_attribute_names,
            expression_attribute_values,
        )
        condition_op = condition_expression_parser.parse()
        if not condition_op.expr(item):
            if (
                return_values_on_condition_check_failure == "ALL_OLD"
                and item is not None
            ):
                raise ConditionalCheckFailed(item=item.to_json()["Attributes"])
            else:
                raise ConditionalCheckFailed

        # Update does not fail on new items, so create one
        if item is None:
            if update_expression:
                # Validate AST before creating anything
                item = Item(hash_value, range_value, attrs={})
                UpdateExpressionValidator(
                    update_expression_ast,
                    expression_attribute_names=expression_attribute_names,
                    expression_attribute_values=expression_attribute_values,
                    item=item,
                    table=table,
                ).validate()
            data: dict[str, Any] = {
                table.hash_key_attr: {hash_value.type: hash_value.value}
            }
            if range_value:
                data.update(
                    {table.range_key_attr: {range_value.type: range_value.value}}  # type: ignore[dict-item]
                )

            table.put_item(data)
            item = table.get_item(hash_value, range_value)

        if attribute_updates:
            item.validate_no_empty_key_values(attribute_updates, table.attribute_keys)  # type: ignore[union-attr]

        if update_expression:
            # Validate the UpdateExpression itself has all information
            validator = UpdateExpressionValidator(
                update_expression_ast,
                expression_attribute_names=expression_attribute_names,
                expression_attribute_values=expression_attribute_values,
                item=item,  # type: ignore[arg-type]
                table=table,
            )
            validated_ast = validator.validate()
            validated_ast.normalize()
            try:
                UpdateExpressionExecutor(
                    validated_ast,
                    item,  # type: ignore[arg-type]
                    expression_attribute_names,
                ).execute()
            except ItemSizeTooLarge:
                raise ItemSizeToUpdateTooLarge()

        else:
            item.update_with_attribute_updates(attribute_updates)  # type: ignore
        if table.stream_shard is not None:
            table.stream_shard.add(orig_item, item)
        return item  # type: ignore[return-value]

    def update_item(self: DynamoDBBackend, *args: Any, **kwargs: Any) -> Any:
        try:
            return moto_update_item(self, *args, **kwargs)
        finally:
            # moto changes the stored item in place: follow its key (parsed
            # as moto's update_item parses it).
            table = None
            try:
                a = update_item_sig.bind(self, *args, **kwargs).arguments
                table = self.get_table(a["table_name"])
                key = a["key"]
                if all([table.hash_key_attr in key, table.range_key_attr in key]):
                    h, r = DynamoType(key[table.hash_key_attr]), DynamoType(key[table.range_key_attr])
                elif table.hash_key_attr in key:
                    h, r = DynamoType(key[table.hash_key_attr]), None
                else:
                    h, r = DynamoType(key), None
                _reindex(table, h, r)
            except Exception:  # noqa: BLE001 - unknown key shape: rebuild on next index Query
                if table is not None:
                    _invalidate(table)

    def update_table(self: DynamoDBBackend, *args: Any, **kwargs: Any) -> Any:
        try:
            return orig_update_table(self, *args, **kwargs)
        finally:
            try:
                name = update_table_sig.bind(self, *args, **kwargs).arguments["name"]
                _invalidate(self.get_table(name))
            except Exception:  # noqa: BLE001
                pass

    def transact_write_items(self: DynamoDBBackend, transact_items: list[dict[str, Any]]) -> None:
        # moto's transact_write_items (5.2.5) with one change: the rollback
        # backup. moto deep-copies every named table (once per item); here
        # each item is copied just before the transaction may write it, and
        # a rollback puts those copies back. Marked "# standin:" below.
        if len(transact_items) > 100:
            raise TooManyTransactionsException()
        # standin: note the tables moto would back up, instead of copying them.
        original_tables: dict[str, Table] = {}
        for item in transact_items:
            _, op = next(iter(item.items()))
            table_name = op.get("TableName")
            if table_name and table_name in self.tables:
                original_tables[table_name] = self.tables[table_name]
        if any(t.stream_shard is not None for t in original_tables.values()):
            STATS["whole_table_transactions"] += 1
            return orig_transact(self, transact_items)
        STATS["transactions"] += 1
        guarded = {id(t) for t in original_tables.values()}
        backups: dict[tuple, tuple] = {}

        def rollback() -> None:
            for table, h, r, saved in backups.values():
                if table.range_key_attr is not None:
                    if saved is None:
                        table.items[h].pop(r, None)
                    else:
                        table.items[h][r] = saved
                else:
                    if saved is None:
                        table.items.pop(h, None)
                    else:
                        table.items[h] = saved
                _reindex(table, h, r)

        target_items: set[tuple[str, str]] = set()

        def check_unicity(table_name: str, key: dict[str, Any]) -> None:
            item = (str(table_name), str(dict(sorted(key.items()))))
            if item in target_items:
                raise MultipleTransactionsException()
            target_items.add(item)

        errors: list[Any] = []  # [(Code, Message, Item), ..]
        for item in transact_items:
            original_item: dict[str, Any] | None = None
            # Check transact writes are not performing multiple operations on the same item
            if len(list(item.keys())) > 1:
                raise TransactWriteSingleOpException

            try:
                op_type, op = next(iter(item.items()))
                if op_type not in {"ConditionCheck", "Put", "Delete", "Update"}:
                    raise ValueError("Unsupported transaction operation")

                table_name = op["TableName"]
                condition_expression = op.get("ConditionExpression")
                expression_attribute_names = op.get("ExpressionAttributeNames")
                expression_attribute_values = op.get("ExpressionAttributeValues")
                return_values_on_condition_check_failure = op.get(
                    "ReturnValuesOnConditionCheckFailure"
                )

                if op_type == "Put":
                    attrs = op["Item"]
                    table = self.get_table(table_name)
                    key = {table.hash_key_attr: attrs[table.hash_key_attr]}
                    if table.range_key_attr is not None:
                        key[table.range_key_attr] = attrs[table.range_key_attr]
                else:
                    key = op["Key"]

                check_unicity(table_name, key)

                current = self.get_item(table_name, key)
                # standin: back up the item this operation may write.
                if op_type != "ConditionCheck":
                    table = self.get_table(table_name)
                    if id(table) in guarded:
                        h, r = self.get_keys_value(table, key)
                        if (id(table), h, r) not in backups:
                            backups[(id(table), h, r)] = (table, h, r, copy.deepcopy(current))
                            STATS["item_backups"] += 1
                if condition_expression is not None:
                    condition_op = get_filter_expression(
                        condition_expression,
                        expression_attribute_names,
                        expression_attribute_values,
                    )
                    if not condition_op.expr(current):
                        if (
                            return_values_on_condition_check_failure == "ALL_OLD"
                            and current
                        ):
                            original_item = current.to_json()["Attributes"]
                        raise ConditionalCheckFailed(item=original_item)

                # Each write checks the operation's condition again, as moto's does.
                conditions = dict(
                    condition_expression=condition_expression,
                    expression_attribute_names=expression_attribute_names,
                    expression_attribute_values=expression_attribute_values,
                )
                if op_type == "Put":
                    self.put_item(table_name, op["Item"], **conditions)
                elif op_type == "Delete":
                    self.delete_item(table_name, key, **conditions)
                elif op_type == "Update":
                    self.update_item(table_name, key, update_expression=op["UpdateExpression"], **conditions)
                errors.append((None, None, None))
            except (MultipleTransactionsException, MockValidationException):
                # Rollback to the original state, and reraise the error
                rollback()  # standin
                raise
            except ConditionalCheckFailed as e:
                errors.append(("ConditionalCheckFailed", str(e.message), original_item))  # type: ignore
            except Exception as e:  # noqa: E722 Do not use bare except
                # For other exceptions, capture their details
                errors.append((type(e).__name__, str(e), original_item))  # type: ignore

        if any(code is not None for code, _, _ in errors):
            # Rollback to the original state, and reraise the errors
            rollback()  # standin
            raise TransactionCanceledException(errors)

    # Projections of top-level names: only the named attributes converted.
    from moto.dynamodb.models import dynamo_type as dynamo_type_module

    orig_project = Item.project
    list_index = re.compile(r"(.+)\[(\d+)\]$")  # find_nested_key's test for a list element

    def project(self: Item, projection_expressions: list[list[str]]) -> Item:
        if not all(len(path) == 1 and not list_index.match(path[0]) for path in projection_expressions):
            return orig_project(self, projection_expressions)
        STATS["top_level_projections"] += 1
        result: dict[str, Any] = {}
        for (name,) in projection_expressions:
            attr = self.attrs.get(name)
            if attr is not None and name not in result:
                result[name] = dynamo_type_module.deserializer.deserialize(attr.to_regular_json())
        return Item(
            hash_key=self.hash_key,
            range_key=self.range_key,
            attrs=dynamo_type_module.serializer.serialize(result)["M"],
        )

    # Answers: attribute maps of plain values are copied, not walked member by member.
    from moto.core.serialize import BaseJSONSerializer

    orig_serialize_map = BaseJSONSerializer._serialize_type_map

    def serialize_type_map(self: Any, serialized: Any, value: Any, shape: Any, key: str) -> None:
        value_shape = getattr(shape, "value", None)
        if getattr(value_shape, "name", None) == "AttributeValue":
            plain = _plain_attribute_map(value)
            if plain is not None:
                STATS["attribute_maps_copied"] += 1
                self._default_serialize(serialized, plain, shape, key)
                return
            STATS["attribute_maps_walked"] += 1
        orig_serialize_map(self, serialized, value, shape, key)

    # Expressions: parsed once per text (see _cached_update_ast and
    # _cached_condition for why sharing the results is safe).
    orig_make = UpdateExpressionParser.__dict__["make"].__func__

    def make(cls: Any, expression_str: Any) -> Any:
        # Every caller of make (moto's UpdateItem and TransactWriteItems
        # answers, the backend's update_item) only reads the AST
        # (find_clauses) or hands it to a Validator, which works on its own
        # copy: the kept AST is never changed.
        return _cached_update_ast(orig_make, cls, expression_str)

    orig_validator_init = Validator.__init__

    def validator_init(
        self: Any,
        expression: Any,
        expression_attribute_names: Any,
        expression_attribute_values: Any,
        item: Any,
        table: Any,
    ) -> None:
        # moto's Validator.__init__, with the copy of the AST unpickled for a
        # kept one (the same copy, several times faster than deepcopy).
        self.expression_attribute_names = expression_attribute_names
        self.expression_attribute_values = expression_attribute_values
        self.item = item
        self.table = table
        self.processors = self.get_ast_processors()
        self.node_to_validate = _copy_update_ast(expression)
        if type(self) is UpdateExpressionValidator:
            key = _tree_checks_key(expression, expression_attribute_names, table)
            if key is not None:
                self.__dict__["_standin_tree_checks"] = key

    orig_validate = Validator.validate
    tree_checks = (ActionCountValidator, OverlappingPathsValidator, UpdateHashRangeKeyValidator)

    def validate(self: Any) -> Any:
        return _validate(self, tree_checks)

    orig_condition_parse = ConditionExpressionParser.parse

    def condition_parse(self: Any) -> Any:
        return _cached_condition(orig_condition_parse, self)

    # The validators' traversal: see _traverse. Only for processors that
    # keep moto's traversal methods (all of moto 5.2.5's do; only
    # pre_processing_of_child is overridden, by one, and is called as moto
    # calls it).
    from moto.dynamodb.parsing.ast_nodes import DepthFirstTraverser, Node

    orig_traverse = DepthFirstTraverser.traverse
    base_methods = (
        DepthFirstTraverser.traverse_node_recursively,
        DepthFirstTraverser.process,
        DepthFirstTraverser.nodes_to_be_processed,
    )
    base_pre = DepthFirstTraverser.pre_processing_of_child

    def traverse(self: Any, node: Any) -> Any:
        cls = type(self)
        if (cls.traverse_node_recursively, cls.process, cls.nodes_to_be_processed) != base_methods:
            return orig_traverse(self, node)
        return _traverse(self, node, Node, cls.pre_processing_of_child is base_pre)

    # Node.find_clauses (moto's, with isinstance by type as _traverse has it):
    # every UpdateItem answer and every validation walks the AST with it.
    from moto.dynamodb.parsing.ast_nodes import Expression, UpdateExpressionFunction

    orig_find_clauses = Node.find_clauses

    def find_clauses(self: Any, clause_types: Any) -> list:
        clauses = []
        for child in self.children or []:
            if type(child) in clause_types:
                clauses.append(child)
            elif _is_instance(type(child), Expression):
                clauses.extend(child.find_clauses(clause_types))
            elif _is_instance(type(child), UpdateExpressionFunction):
                clauses.extend(child.find_clauses(clause_types))
        return clauses

    # The action lookup: moto lists the handler class's functions (inspect.
    # getmembers over a few hundred attributes) on every request, only to
    # test whether the action is among them. A class's functions do not
    # change while the server runs (this module patches classes before it
    # serves), so the list is made once per class; call_action only reads it.
    from moto.core import responses as core_responses

    orig_method_names = core_responses.method_names_from_class
    method_names_memo: dict[Any, list[str]] = {}

    def method_names_from_class(clazz: Any) -> list[str]:
        names = method_names_memo.get(clazz)
        if names is None:
            names = method_names_memo[clazz] = orig_method_names(clazz)
        return names

    method_names_from_class.__standin_original__ = orig_method_names  # type: ignore[attr-defined]
    core_responses.method_names_from_class = method_names_from_class  # type: ignore[assignment]

    # Items built whole (every PutItem, every item of a projection): moto's
    # LimitedSizeDict sums the size of every attribute already in the item
    # at each insert, quadratic in the attributes (about a tenth of the
    # stand-in's handling for a test binary's requests). Built at once, the
    # sum so far is known: the same check at the same attribute, with the same
    # error. Later inserts (update expressions) keep moto's whole sum, as a
    # value may have changed in place since.
    from moto.dynamodb.models.dynamo_type import LimitedSizeDict
    from moto.dynamodb.models.utilities import bytesize

    orig_item_init = Item.__init__

    def item_init(self: Item, hash_key: Any, range_key: Any, attrs: dict[str, Any]) -> None:
        self.hash_key = hash_key
        self.range_key = range_key
        limited = LimitedSizeDict()
        total = 0
        for key, value in attrs.items():
            typed = DynamoType(value)
            size = bytesize(key) + typed.size()
            if total + size > 405000:  # LimitedSizeDict.__setitem__'s limit
                raise ItemSizeTooLarge
            dict.__setitem__(limited, key, typed)
            total += size
        self.attrs = limited

    # Item tracking: weak, so deep copies do not live for ever.
    base_new = Item.__new__

    def item_new(cls: type, *args: Any, **kwargs: Any) -> Any:
        if cls is not Item:
            return base_new(cls, *args, **kwargs)
        instance = object.__new__(cls)
        tracked = cls.__dict__.get("instances_tracked")
        if not isinstance(tracked, _WeakTracked):
            # First item, or moto's reset put a plain list back.
            tracked = _WeakTracked()
            cls.instances_tracked = tracked  # type: ignore[attr-defined]
        tracked.append(instance)
        return instance

    for owner, name, fn, orig in (
        (Table, "all_items", all_items, orig_all_items),
        (Table, "query", query, orig_query),
        (Table, "put_item", put_item, orig_put_item),
        (Table, "delete_item", delete_item, orig_delete_item),
        (DynamoDBBackend, "update_item", update_item, orig_update_item),
        (DynamoDBBackend, "update_table", update_table, orig_update_table),
        (DynamoDBBackend, "transact_write_items", transact_write_items, orig_transact),
        (BaseJSONSerializer, "_serialize_type_map", serialize_type_map, orig_serialize_map),
        (Item, "project", project, orig_project),
        (Item, "__init__", item_init, orig_item_init),
        (Validator, "__init__", validator_init, orig_validator_init),
        (Validator, "validate", validate, orig_validate),
        (ConditionExpressionParser, "parse", condition_parse, orig_condition_parse),
        (DepthFirstTraverser, "traverse", traverse, orig_traverse),
        (Node, "find_clauses", find_clauses, orig_find_clauses),
    ):
        fn.__standin_original__ = orig  # type: ignore[attr-defined]
        fn.__name__ = name
        fn.__qualname__ = f"{owner.__name__}.{name}"
        setattr(owner, name, fn)
    make.__standin_original__ = UpdateExpressionParser.make  # type: ignore[attr-defined]
    make.__name__ = "make"
    make.__qualname__ = "UpdateExpressionParser.make"
    UpdateExpressionParser.make = classmethod(make)  # type: ignore[method-assign,assignment]
    Item.__new__ = staticmethod(item_new)  # type: ignore[method-assign,assignment]
    Item.instances_tracked = _WeakTracked()  # type: ignore[attr-defined]
    del backend_module  # only imported to make sure the module is loaded
    _applied = True


def status() -> dict[str, Any]:
    """For /_stand_in/status: whether the patch is on, call counters, and the
    size of each built index map ({table: {index: [item keys, partitions]}})."""
    import moto
    from moto.dynamodb.models import dynamodb_backends

    maps: dict[str, dict[str, list[int]]] = {}
    for _account, _region, backend in dynamodb_backends.iter_backends():
        for name, table in backend.tables.items():
            m = table.__dict__.get("_standin_gsi")
            if isinstance(m, _GsiMaps) and m.indexes is not None:
                maps[name] = {i: [len(x.where) + len(x.odd), len(x.parts)] for i, x in m.indexes.items()}
    return {"patched": _applied, "moto": moto.__version__, "stats": dict(STATS), "index_maps": maps}
