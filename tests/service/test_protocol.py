"""The frame parser's table of bad frames (the host's answers to them: test_app.py) and the page."""

from __future__ import annotations

import json

import pytest

from poker51.service.protocol import MAX_FRAME, FrameError, parse

BAD = [
    (None, "bad_json"),
    ("", "bad_json"),
    ("{", "bad_json"),
    ("3", "bad_json"),
    ('{"id": "a"}', "bad_frame"),
    ('{"type": "ACT", "id": "a", "turn": 0}', "bad_frame"),
    ('{"type": "act", "id": "", "turn": 0}', "bad_frame"),
    ('{"type": "act", "id": "a b", "turn": 0}', "bad_frame"),
    ('{"type": "act", "id": "a", "turn": -1}', "bad_frame"),
    ('{"type": "act", "id": "a", "turn": true}', "bad_frame"),
    ('{"type": "hello", "token": 5}', "bad_frame"),
    ('{"type": "hello", "v": 2}', "bad_frame"),
    ('{"type": "hello", "last_seq": "x"}', "bad_frame"),
    ('{"type": "hello", "extra": 1}', "bad_frame"),
    ('{"type": "resync"}', "bad_frame"),
    ('{"type": "view", "x": 1}', "bad_frame"),
    ('{"type": "query", "what": "odds"}', "bad_frame"),
    (json.dumps({"type": "view", "pad": "x" * MAX_FRAME}), "too_large"),
]


@pytest.mark.parametrize("text,code", BAD)
def test_bad_frames(text, code):
    with pytest.raises(FrameError) as err:
        parse(text)
    assert err.value.code == code


def test_good_frames():
    f = parse('{"type": "hello", "token": "abcdefgh", "last_seq": 4}')
    assert (f.type, f.raw["last_seq"]) == ("hello", 4)
    f = parse('{"type": "deal", "id": "x.1:2-3_4", "turn": 7}')
    assert (f.id, f.turn, f.cmd) == ("x.1:2-3_4", 7, {"type": "deal"})
    assert parse('{"type": "query", "id": "q", "what": "odds", "keep": 3}').cmd == {
        "type": "query", "what": "odds", "keep": 3,
    }  # fmt: skip


def test_the_page_and_serve_build(sqlite_service, tmp_path):
    c = sqlite_service.client
    assert "js/main.js" in c.get("/").text
    for f in ("main.js", "api.js", "socket.js", "headsup.js", "cards.js"):
        r = c.get(f"/static/js/{f}")
        assert r.status_code == 200 and "export" in r.text or f == "main.js"
    v = c.get("/api/version").json()
    assert v["protocol"] == "poker51-service/1" and "headsup" in v["rooms"]
