"""The triaged queue: each case's priority (the reasons' severity, the reporters' past
accuracy), several reports on one member merged into one case, sorted by priority, filtered by
room; a reporter who reported falsely often counts less."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from moderation.models import Report
from moderation.selectors import report_queue
from social import services as social
from tests.conftest import make_moderator, verified_client


@pytest.fixture
def people(db, django_user_model, three_player_game):
    names = ["ann", "ben", "cat", "dan", "eve", "liar", "good", "newbie"]
    return {n: django_user_model.objects.create_user(n, f"{n}@example.com", "x") for n in names}


def _report(table, reporter, about, reason, room, status="open", actioned=None):
    return Report.objects.create(
        table=table,
        reporter=reporter,
        reported_user=about,
        reason=reason,
        room=room,
        status=status,
        actioned=actioned,
        automatic=reporter is None,
    )


def test_the_queue_s_order_on_a_hand_built_set(people, three_player_game):
    t = three_player_game
    p = people
    # Past records: "liar" filed 8 reports that led to nothing; "good" 8 that led to action.
    for _ in range(8):
        _report(t, p["liar"], p["eve"], "other", "other", "resolved", actioned=False)
        _report(t, p["good"], p["eve"], "other", "other", "resolved", actioned=True)
    # ann: cheating, reported by the liar alone: 5 x 1/10 = 0.5.
    _report(t, p["liar"], p["ann"], "cheating", "play")
    # ben: abuse in chat by good (4 x 9/10 = 3.6) and by newbie (4 x 1/2 = 2.0): one case, 5.6.
    _report(t, p["good"], p["ben"], "abuse", "chat")
    _report(t, p["newbie"], p["ben"], "abuse", "chat")
    # cat: newbie reports her three times for spam: counted once, 2 x 1/2 = 1.0.
    for _ in range(3):
        _report(t, p["newbie"], p["cat"], "spam", "chat")
    # dan: the site's automatic report of timeouts: 3 x 1 = 3.0.
    _report(t, None, p["dan"], "stalling", "play")
    queue = report_queue()
    assert [(c.member.username, c.score, len(c.reports)) for c in queue] == [
        ("ben", 5.6, 2),
        ("dan", 3.0, 1),
        ("cat", 1.0, 3),
        ("ann", 0.5, 1),
    ]
    # A room filters the cases (and what counts in them).
    assert [c.member.username for c in report_queue(room="chat")] == ["ben", "cat"]
    assert [c.member.username for c in report_queue(room="play")] == ["dan", "ann"]
    assert report_queue(room="other") == []


def test_the_queue_page_sorts_and_filters_by_room(people, three_player_game):
    t, p = three_player_game, people
    _report(t, p["newbie"], p["cat"], "spam", "chat")
    _report(t, None, p["dan"], "stalling", "play")
    game = verified_client(make_moderator("gm", "game"))
    html = game.get("/admin/moderation/report/queue/").content.decode()
    rows = html.split('id="queue"')[1]
    assert rows.index("dan") < rows.index("cat")
    chat_only = game.get("/admin/moderation/report/queue/?room=chat").content.decode()
    assert (
        "cat" in chat_only.split('id="queue"')[1] and "dan" not in chat_only.split('id="queue"')[1]
    )
    # A case the moderator must leave to another says so.
    social.block_add(user=User.objects.get(username="gm"), username="cat")
    row = game.get("/admin/moderation/report/queue/").content.decode().split("cat</a>")[1]
    assert row.split("</td>")[0].find("you blocked this member") != -1
    # A chat moderator's queue opens on the chat room.
    chat = verified_client(make_moderator("cm", "chat"))
    opened = chat.get("/admin/moderation/report/queue/").content.decode()
    assert 'aria-current="page">Chat<' in opened and "dan" not in opened.split('id="queue"')[1]
