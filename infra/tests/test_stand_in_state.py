"""The stand-in's saved state (infra/stand_in.py --state FILE, what
PERSIST=1 ./infra/dev.sh uses): saved on SIGTERM, loaded on start, and a bad
file reported and set aside instead of stopping the start.

Run: .venv/bin/python -m unittest discover -s infra/tests -v
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from standin_harness import StandIn  # noqa: E402
from test_stand_in import PROJECT_TABLE, S, key  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import stand_in_state  # noqa: E402

SENDER = "no-reply@example.com"
BODY = bytes(range(256)) * 40  # binary, 10 kB


def snapshot(stand_in: StandIn) -> dict:
    """What a restart must keep."""
    ddb, s3, sesv2 = stand_in.client(), stand_in.client("s3"), stand_in.client("sesv2")
    out = {
        "scan": ddb.scan(TableName="t")["Items"],
        "gsi": ddb.query(TableName="t", IndexName="GSI1", KeyConditionExpression="GSI1PK = :p",
                         ExpressionAttributeValues={":p": S("ROLE#admin")}, ScanIndexForward=False)["Items"],
        "ttl": ddb.describe_time_to_live(TableName="t")["TimeToLiveDescription"],
        "object": s3.get_object(Bucket="docs", Key="cases/c1/a.pdf")["Body"].read(),
        "identities": [i["IdentityName"] for i in sesv2.list_email_identities()["EmailIdentities"]],
        "sent": stand_in.client("ses").get_send_quota()["SentLast24Hours"],
    }
    return out


class SavedState(unittest.TestCase):
    def setUp(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="stand-in-state-")
        self.path = os.path.join(self.dir, "state.pickle")
        self.running: list[StandIn] = []

    def tearDown(self) -> None:
        for s in self.running:
            s.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def start(self) -> StandIn:
        s = StandIn("--state", self.path, log_path=os.path.join(self.dir, f"log-{len(self.running)}.txt"))
        self.running.append(s)
        return s

    def fill(self, s: StandIn) -> None:
        ddb = s.client()
        ddb.create_table(TableName="t", **PROJECT_TABLE)
        ddb.update_time_to_live(TableName="t", TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})
        for i in range(30):
            ddb.put_item(TableName="t", Item={**key(f"USER#u{i}", "USER"), "GSI1PK": S(f"ROLE#{['admin', 'lawyer'][i % 2]}"),
                                              "GSI1SK": S(f"2026-01-{i + 1:02d}#u{i}"), "name": S("Åsa Öberg")})
        ddb.query(TableName="t", IndexName="GSI1", KeyConditionExpression="GSI1PK = :p", ExpressionAttributeValues={":p": S("ROLE#admin")})
        s3 = s.client("s3")
        s3.create_bucket(Bucket="docs", CreateBucketConfiguration={"LocationConstraint": "eu-north-1"})
        s3.put_object(Bucket="docs", Key="cases/c1/a.pdf", Body=BODY, ContentType="application/pdf")
        sesv2 = s.client("sesv2")
        sesv2.create_email_identity(EmailIdentity=SENDER)
        sesv2.send_email(FromEmailAddress=SENDER, Destination={"ToAddresses": ["kund@example.com"]},
                         Content={"Simple": {"Subject": {"Data": "Aktivera"}, "Body": {"Text": {"Data": "Länk: x"}}}})

    def test_state_survives_a_restart(self) -> None:
        first = self.start()
        self.assertIn("no saved state", first.log())
        self.fill(first)
        before = snapshot(first)
        self.assertEqual(before["object"], BODY)
        self.assertEqual(before["sent"], 1)
        self.assertEqual(first.stop(), 0)
        self.assertIn("state saved", first.log())
        self.assertTrue(os.path.exists(self.path))
        self.assertEqual([f for f in os.listdir(self.dir) if ".tmp-" in f], [])

        second = self.start()
        self.assertIn("loaded the state", second.log())
        self.assertEqual(snapshot(second), before)
        # Still writable, and what changed is saved again.
        ddb = second.client()
        ddb.put_item(TableName="t", Item={**key("USER#new", "USER"), "GSI1PK": S("ROLE#admin"), "GSI1SK": S("2027#new")})
        ddb.delete_item(TableName="t", Key=key("USER#u0", "USER"))
        after = snapshot(second)
        self.assertNotEqual(after["gsi"], before["gsi"])
        self.assertTrue(second.status()["patched"])
        self.assertEqual(second.stop(), 0)

        third = self.start()
        self.assertEqual(snapshot(third), after)

    def wait_for_save(self, s: StandIn, saves: int, seconds: float = 20) -> None:
        deadline = time.time() + seconds
        while s.log().count("state saved") < saves:
            self.assertLess(time.time(), deadline, f"not saved within {seconds} s:\n{s.log()}")
            time.sleep(0.2)

    def test_writes_are_saved_within_seconds_so_a_kill_loses_nothing_before(self) -> None:
        first = self.start()
        self.fill(first)
        self.wait_for_save(first, 1)
        before = snapshot(first)
        time.sleep(4)  # past the longest wait: whatever came before is saved
        saves = first.log().count("state saved")
        # DynamoDB reads alone do not save again.
        ddb = first.client()
        ddb.scan(TableName="t")
        ddb.get_item(TableName="t", Key=key("USER#u1", "USER"))
        time.sleep(2)
        self.assertEqual(first.log().count("state saved"), saves)
        ddb.put_item(TableName="t", Item={**key("USER#late", "USER"), "GSI1PK": S("ROLE#admin"), "GSI1SK": S("2028#late")})
        self.wait_for_save(first, saves + 1)
        after = snapshot(first)
        self.assertNotEqual(after, before)
        first.proc.kill()  # a crash: no signal handler runs
        first.proc.wait()
        self.assertEqual([f for f in os.listdir(self.dir) if ".tmp-" in f], [])
        second = self.start()
        self.assertEqual(snapshot(second), after)

    def test_a_closed_terminal_saves_and_a_failed_save_says_so(self) -> None:
        first = self.start()
        first.client().create_table(TableName="t", **PROJECT_TABLE)
        first.proc.send_signal(signal.SIGHUP)
        self.assertEqual(first.proc.wait(60), 0)
        self.assertIn("state saved", first.log())
        self.assertEqual(self.start().client().list_tables()["TableNames"], ["t"])
        # A state file that cannot be written (its directory is a file).
        blocker = os.path.join(self.dir, "not-a-dir")
        with open(blocker, "w") as f:
            f.write("x")
        self.path = os.path.join(blocker, "state.pickle")
        s = self.start()
        s.client().create_table(TableName="u", **PROJECT_TABLE)
        self.assertEqual(s.stop(), 1)
        self.assertIn("stopped WITHOUT saving the state", s.log())

    def assert_rejected(self, content: bytes, reason: str) -> None:
        with open(self.path, "wb") as f:
            f.write(content)
        s = self.start()
        log = s.log()
        self.assertIn("NOT loading the saved state", log)
        self.assertIn(reason, log)
        self.assertEqual(s.client().list_tables()["TableNames"], [])  # started empty, and answers
        self.assertFalse(os.path.exists(self.path))
        with open(self.path + ".rejected", "rb") as f:
            self.assertEqual(f.read(), content)  # set aside, not lost
        s.stop()
        self.running.remove(s)
        os.unlink(self.path + ".rejected")

    def test_a_bad_file_is_reported_and_set_aside(self) -> None:
        self.assert_rejected(b"\x00\x01garbage", "no header")
        header = stand_in_state._header()
        self.assert_rejected(json.dumps(dict(header, moto="0.0.1")).encode() + b"\n", "written with moto '0.0.1'")
        self.assert_rejected(json.dumps(dict(header, version=99)).encode() + b"\n", "written with version 99")
        self.assert_rejected(json.dumps(header).encode() + b"\n\x80\x05truncated", "unreadable")
        # A good file cut short (a disk that filled up): reported too.
        first = self.start()
        self.fill(first)
        first.stop()
        with open(self.path, "rb") as f:
            whole = f.read()
        self.assert_rejected(whole[: len(whole) // 2], "unreadable")


if __name__ == "__main__":
    unittest.main()
