"""The floor's shared pieces: the one IllegalAction, the log reader of every format, the
settlement record, the action record, and scenario files through ``poker51.validation``."""

from __future__ import annotations

import json
import pickle

import pytest

from poker51.errors import ConfigError, InputError
from poker51.multi import commit as multi_commit
from poker51.multi.table import Table
from poker51.play.engine import HandState, play_hand, replay
from poker51.play.players import RandomPlayer
from poker51.rulebook import log as rulebook_log
from poker51.table.errors import IllegalAction, LogError, ReplayError, illegal, split_rule
from poker51.table.log import FORMATS, HEADS_UP, MULTI, RULEBOOK, log_format, log_text, parse_log, read_log
from poker51.table.protocol import Engine, TableAction, cards_from_json, cards_json
from poker51.table.settlement import ConservationError, Settlement, check_stacks, settle
from poker51.validation import load_scenario, scenario_schema


# --------------------------------------------------------------------------- errors
def test_illegal_action_names_its_rule_in_both_spellings():
    a = illegal("A hand 2: at most two raises in a round", "a third raise")
    b = IllegalAction("a third raise [A hand 2: at most two raises in a round]")
    assert str(a) == str(b) == "a third raise [A hand 2: at most two raises in a round]"
    assert (a.rule, a.detail) == (b.rule, b.detail) == ("A hand 2: at most two raises in a round", "a third raise")
    assert isinstance(a, InputError) and isinstance(ReplayError("x"), InputError)
    assert issubclass(LogError, ReplayError)
    assert split_rule("no rule here") == ("no rule here", "")
    assert split_rule("x [a] y") == ("x [a] y", "")


class _ArticleError(IllegalAction):
    """A rule book's error: its own message, the rule still named."""

    def __init__(self, action: str, article: str, detail: str) -> None:
        self.action = action
        super().__init__(detail, f"article {article}", message=f"{action} breaks {article}: {detail}")


def test_a_subclass_keeps_its_message_and_is_caught_as_illegal_action():
    with pytest.raises(IllegalAction) as err:
        raise _ArticleError("raise 300", "3.7", "below the minimum raise")
    e = err.value
    assert (str(e), e.rule, e.detail, e.action) == (
        "raise 300 breaks 3.7: below the minimum raise",
        "article 3.7",
        "below the minimum raise",
        "raise 300",
    )
    back = pickle.loads(pickle.dumps(e))
    assert (type(back), str(back), back.rule, back.action) == (_ArticleError, str(e), e.rule, "raise 300")


# --------------------------------------------------------------------------- the log
def test_log_text_is_the_heads_up_writer_byte_for_byte():
    res = play_hand({"H": RandomPlayer(1), "R": RandomPlayer(2)}, stacks={"H": 20, "R": 20}, base_seed=3)
    events = [json.loads(line) for line in res.log.splitlines()]
    assert log_text(events) == res.log
    assert read_log(res.log) == events == read_log(res.log_bytes)
    assert log_format(events) == HEADS_UP


def test_read_log_names_file_line_and_column(tmp_path):
    p = tmp_path / "hand.jsonl"
    p.write_text('{"event":"hand","format":"poker51-hand/1"}\n\n[1, 2]\n')
    with pytest.raises(LogError, match=r"hand\.jsonl:3:1: a log line is a JSON object, got list$"):
        read_log(p)
    p.write_text('{"event":"hand"}\n  {"event": "ante", "amount": 1,}\n')
    with pytest.raises(LogError, match=r"hand\.jsonl:2:33: not JSON \(Expecting property name"):
        read_log(str(p))
    with pytest.raises(LogError, match=r"nothere\.jsonl: no such log"):
        read_log(tmp_path / "nothere.jsonl")
    with pytest.raises(LogError, match=r"^<log>:1:1: not a poker51-hand/1 log \(a rulebook log"):
        parse_log('{"type":"commit","hand":1}\n', expect=HEADS_UP)
    with pytest.raises(LogError, match=r"^<log>: not UTF-8 text \(byte 0\)"):
        read_log(b"\xff\n")


def test_read_log_reads_the_tables_and_the_rule_books_files(tmp_path):
    table = Table("t1")
    path = table.save_log(tmp_path / "table.jsonl")
    assert read_log(path, expect=MULTI) == multi_commit.read_log(path) == table.log
    records = [{"hand": 1, "commitment": "ab" * 32, "game": "holdem"}, {"hand": 2, "game": "omaha"}]
    rb = rulebook_log.write_log(records, tmp_path / "rb.jsonl")
    assert read_log(rb, expect=RULEBOOK) == rulebook_log.read_log(rb)
    assert [r["type"] for r in read_log(rb)] == ["commit", "hand", "commit", "hand"]
    assert log_format(read_log(path)) == MULTI and log_format(read_log(rb)) == RULEBOOK
    assert FORMATS == (HEADS_UP, MULTI, RULEBOOK)
    assert log_format([{"event": "x"}]) is None and log_format([]) is None


# --------------------------------------------------------------------------- settlement
def test_settlement_side_pots_odd_units_and_conservation():
    s = settle({0: 100, 1: 500, 2: 900, 3: 900}, live={0, 1, 2}, strengths={0: 9, 1: 5, 2: 5}, order=[2, 3, 0, 1])
    assert s.returned == {2: 0, 3: 0, 0: 0, 1: 0}  # 3 folded at 900: the 900 level was called
    assert [(p.amount, p.eligible, p.winners) for p in s.pots] == [
        (400, (2, 0, 1), (0,)),
        (1200, (2, 1), (2, 1)),
        (800, (2,), (2,)),
    ]
    assert s.won == {2: 1400, 3: 0, 0: 400, 1: 600}
    assert s.net == {2: 500, 3: -900, 0: 300, 1: 100} and sum(s.net.values()) == 0
    assert sum(v for _, _, v in s.transfers) == 2400  # every pot paid, contributor by contributor
    assert sum(v for a, b, v in s.transfers if a != b) == 300 + 800 + 400  # what changed hands
    odd = settle({"H": 3, "R": 3, "X": 1}, live={"H", "R"}, strengths={"H": 1, "R": 1}, order=["R", "X", "H"])
    assert odd.won == {"R": 4, "X": 0, "H": 3}
    fold = settle({"H": 9, "R": 1}, live={"H"}, order=["H", "R"])
    assert (fold.returned, fold.won, fold.showdown) == ({"H": 8, "R": 0}, {"H": 2, "R": 0}, False)
    assert fold.payouts == {"H": 10, "R": 0}


def test_conservation_is_checked():
    with pytest.raises(ConservationError, match="not conserved"):
        Settlement({"H": 2, "R": 2}, {"H": 0, "R": 0}, {"H": 3, "R": 0}).check()
    assert Settlement({0: 10, 1: 10}, {0: 0, 1: 0}, {0: 19, 1: 0}, rake=1).check().net == {0: 9, 1: -10}
    check_stacks({"H": 5, "R": 5}, {"H": 10, "R": 0})
    with pytest.raises(ConservationError):
        check_stacks({"H": 5, "R": 5}, {"H": 11, "R": 0})


# --------------------------------------------------------------------------- protocol
def test_table_action_json_and_cards():
    a = TableAction.of("R", "draw", None, keep=7)
    assert TableAction.from_json(json.loads(json.dumps(a.to_json()))) == a
    assert TableAction.of(2, "open", 100, all_in=None) == TableAction(2, "open", 100)
    with pytest.raises(InputError, match="seat and kind"):
        TableAction.from_json({"kind": "check"})
    with pytest.raises(InputError, match="amount is an int"):
        TableAction.from_json({"seat": "H", "kind": "bet", "amount": "4"})
    assert cards_from_json(cards_json(range(52))) == list(range(52))


def test_the_heads_up_state_is_an_engine():
    state = HandState("standard", {"H": 5, "R": 5}, list(range(1, 52)))
    assert isinstance(state, Engine)
    assert replay(play_hand({"H": RandomPlayer(4), "R": RandomPlayer(5)}, stacks={"H": 5, "R": 5}, base_seed=1).log)


# --------------------------------------------------------------------------- scenarios
def test_scenario_files_go_through_the_schema(tmp_path):
    schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["seats"],
        "properties": {"seats": {"type": "array", "minItems": 2}, "button": {"type": "integer", "default": 0}},
    }
    p = tmp_path / "s.json"
    p.write_text('{"seats": [1, 2]}')
    assert load_scenario(p, schema) == {"seats": [1, 2], "button": 0}
    p.write_text('{"seats": [1, 2], "buton": 1}')
    with pytest.raises(ConfigError, match=r"s\.json: buton: unknown key \(did you mean 'button'\?"):
        load_scenario(p, schema)
    p.write_text('{"seats": [1, 2],\n "button": }')
    with pytest.raises(ConfigError, match=r"s\.json: line 2, column 12: not JSON"):
        load_scenario(p, schema)
    with pytest.raises(ConfigError, match="no schema 'nope'; the package has: .*population"):
        scenario_schema("nope")
