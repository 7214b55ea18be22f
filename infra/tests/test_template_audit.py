"""The audit trail is append-only in the deployed template: every function
role that may write the table may put items under AUDIT# but is refused
UpdateItem, DeleteItem and BatchWriteItem on them (an explicit Deny on the
`dynamodb:LeadingKeys` prefix), and the items carry a TTL from the
AuditRetentionDays parameter. The policies are evaluated the way IAM does
(an explicit Deny wins over any Allow), so removing or narrowing the Deny,
or a function role granted writes without it, fails here."""

import fnmatch
import pathlib
import unittest

from cfnlint.decode import cfn_yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
TABLE = {"Fn::GetAtt": ["Table", "Arn"]}
WRITES = ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"]


def as_list(v):
    return v if isinstance(v, list) else [v]


def statements(function):
    for policy in as_list(function["Properties"].get("Policies", [])):
        if isinstance(policy, dict) and "Statement" in policy:
            yield from as_list(policy["Statement"])


def on_table(statement):
    return any(r == TABLE or (isinstance(r, dict) and r.get("Fn::Sub", "").startswith("${Table.Arn}")) for r in as_list(statement.get("Resource", [])))


def matches(statement, action, leading_key):
    if not on_table(statement) or not any(fnmatch.fnmatch(action, a) for a in as_list(statement["Action"])):
        return False
    condition = statement.get("Condition")
    if not condition:
        return True
    patterns = condition.get("ForAnyValue:StringLike", {}).get("dynamodb:LeadingKeys")
    if patterns is None:
        raise AssertionError(f"a condition this test does not evaluate: {condition}")
    return any(fnmatch.fnmatchcase(leading_key, p) for p in as_list(patterns))


def allowed(function, action, leading_key):
    """IAM's decision for one item: an explicit Deny wins, else an Allow."""
    found = list(statements(function))
    if any(s["Effect"] == "Deny" and matches(s, action, leading_key) for s in found):
        return False
    return any(s["Effect"] == "Allow" and matches(s, action, leading_key) for s in found)


class TemplateAudit(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.template = cfn_yaml.loads((ROOT / "template.yaml").read_text())
        cls.functions = {n: r for n, r in cls.template["Resources"].items() if r["Type"] == "AWS::Serverless::Function"}

    def test_no_function_updates_or_deletes_an_audit_item(self):
        writers = [n for n, f in self.functions.items() if any(allowed(f, a, "CASE#x") for a in WRITES)]
        self.assertGreater(len(writers), 5, "the functions that write the table were found")
        for name in writers:
            f = self.functions[name]
            for key in ["AUDIT#2026-11", "AUDIT#CONFLICT#2026-11"]:
                for action in ["dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"]:
                    self.assertFalse(allowed(f, action, key), f"{name} may {action} {key}")
            # Other items stay writable as before.
            if allowed(f, "dynamodb:UpdateItem", "CASE#x"):
                self.assertTrue(allowed(f, "dynamodb:UpdateItem", "USER#x"), name)

    def test_functions_that_record_events_may_put_them(self):
        for name in ["CasesFunction", "IdentityFunction", "CustomersFunction", "ConflictSearchFunction"]:
            self.assertTrue(allowed(self.functions[name], "dynamodb:PutItem", "AUDIT#2026-11"), name)

    def test_the_evaluation_refuses_without_the_deny(self):
        # The check above is not vacuous: a role without the Deny may update.
        f = self.functions["CasesFunction"]
        stripped = {"Properties": {"Policies": [{"Statement": [s for s in statements(f) if s["Effect"] == "Allow"]}]}}
        self.assertTrue(allowed(stripped, "dynamodb:UpdateItem", "AUDIT#2026-11"))

    def test_retention_is_a_parameter_defaulting_to_ten_years(self):
        p = self.template["Parameters"]["AuditRetentionDays"]
        self.assertEqual(p["Default"], 3653)
        variables = self.template["Globals"]["Function"]["Environment"]["Variables"]
        self.assertEqual(variables["AUDIT_RETENTION_DAYS"], {"Ref": "AuditRetentionDays"})
        ttl = self.template["Resources"]["Table"]["Properties"]["TimeToLiveSpecification"]
        self.assertEqual((ttl["AttributeName"], ttl["Enabled"]), ("ttl", True))

    def test_client_record_retention_is_configurable_with_the_laws_defaults(self):
        variables = self.template["Globals"]["Function"]["Environment"]["Variables"]
        for param, var, default in [
            ("CaseFileRetentionYears", "CASE_FILE_RETENTION_YEARS", 10),
            ("BillingRetentionYears", "BILLING_RETENTION_YEARS", 7),
        ]:
            p = self.template["Parameters"][param]
            self.assertEqual((p["Default"], p["MinValue"], p["MaxValue"]), (default, 1, 100), param)
            self.assertEqual(variables[var], {"Ref": param})


if __name__ == "__main__":
    unittest.main()
