"""Table chat through the API: who writes to whom, limits, no HTML, paging, rate limit."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client, override_settings

from chat.models import ChatMessage
from moderation.services import user_mute
from tests.conftest import make_moderator
from tests.moderation.conftest import error_of


def say(client, table, text=None, **body):
    if text is not None:
        body["text"] = text
    return client.post(f"/api/tables/{table.pk}/chat", body)


def texts(client, table, before=None):
    path = f"/api/tables/{table.pk}/chat" + (f"?before={before}" if before else "")
    response = client.get(path)
    assert response.status_code == 200, response.content
    return [m["text"] for m in response.json()["messages"]]


def test_players_talk_and_read_back_in_order(public_game, alice, bob, api_for):
    assert say(api_for(alice), public_game, "hello all").status_code == 201
    response = say(api_for(bob), public_game, "  hi   alice  ")
    assert response.status_code == 201
    body = response.json()
    assert body["author"] == "bob" and body["text"] == "hi alice" and body["mine"] is True
    assert body["audience"] == "players" and body["move"] == public_game.move_count
    assert texts(api_for(alice), public_game) == ["hello all", "hi alice"]


def test_spectators_chat_never_reaches_players(public_game, alice, charlie, api_for):
    say(api_for(alice), public_game, "players only")
    response = say(api_for(charlie), public_game, "bob holds two wilds")
    assert response.status_code == 201 and response.json()["audience"] == "spectators"
    assert texts(api_for(alice), public_game) == ["players only"]
    assert texts(api_for(charlie), public_game) == ["bob holds two wilds"]


def test_private_table_chat_is_for_its_players_only(private_game, bob, charlie, api_for):
    assert say(api_for(bob), private_game, "hi").status_code == 201
    assert error_of(say(api_for(charlie), private_game, "let me in")) == (403, "not_seated")
    assert error_of(api_for(charlie).get(f"/api/tables/{private_game.pk}/chat")) == (
        403,
        "not_seated",
    )


def test_text_limits_and_html_stored_as_text(public_game, alice, api_for):
    client = api_for(alice)
    assert error_of(say(client, public_game, "   ")) == (400, "bad_message")
    assert error_of(say(client, public_game, "x" * 501)) == (400, "bad_message")
    assert error_of(say(client, public_game, 42)) == (400, "bad_request")
    html = '<script>alert("x")</script><b>bold</b>'
    assert say(client, public_game, html).json()["text"] == html
    assert say(client, public_game, "line\nbreak\x00").json()["text"] == "line break"
    assert ChatMessage.objects.filter(text=html).exists()


def test_canned_reactions(public_game, bob, api_for):
    response = say(api_for(bob), public_game, reaction="nice_buy")
    assert response.status_code == 201
    assert response.json()["text"] == "Nice buy!" and response.json()["reaction"] == "nice_buy"
    assert error_of(say(api_for(bob), public_game, reaction="boo")) == (400, "bad_message")
    page = api_for(bob).get(f"/api/tables/{public_game.pk}/chat").json()
    assert page["reactions"]["well_played"] == "Well played"


def test_paging_with_before(public_game, alice, api_for):
    for n in range(55):
        ChatMessage.objects.create(
            table=public_game, author=alice, audience="players", text=f"m{n}"
        )
    client = api_for(alice)
    first = client.get(f"/api/tables/{public_game.pk}/chat").json()
    assert first["more"] is True and len(first["messages"]) == 50
    assert first["messages"][-1]["text"] == "m54"
    second = client.get(f"/api/tables/{public_game.pk}/chat?before={first['messages'][0]['id']}")
    assert [m["text"] for m in second.json()["messages"]] == [f"m{n}" for n in range(5)]
    assert second.json()["more"] is False


@override_settings(MAYI_RATE_LIMITS={"chat": "3/60"})
def test_rate_limited_per_user(public_game, alice, bob, api_for):
    from django.core.cache import cache

    cache.clear()
    for n in range(3):
        assert say(api_for(alice), public_game, f"spam {n}").status_code == 201
    refused = say(api_for(alice), public_game, "one more")
    assert error_of(refused) == (429, "rate_limited")
    # When to try again, in the header every client and proxy reads, and in the message.
    assert 60 <= int(refused["Retry-After"]) <= 66
    assert "try again in" in refused.json()["error"]["message"]
    # Another user is not held back by alice.
    assert say(api_for(bob), public_game, "fine").status_code == 201
    assert ChatMessage.objects.filter(author=alice).count() == 3
    cache.clear()


def test_session_post_needs_csrf(public_game, bob):
    client = Client(enforce_csrf_checks=True)
    client.force_login(bob)
    response = client.post(
        f"/api/tables/{public_game.pk}/chat", {"text": "hi"}, content_type="application/json"
    )
    assert error_of(response) == (403, "csrf_failed")


def test_table_page_shows_the_panel_and_escapes_nothing_itself(public_game, bob):
    ChatMessage.objects.create(
        table=public_game, author=bob, audience="players", text="<img src=x onerror=alert(1)>"
    )
    client = Client()
    client.force_login(bob)
    page = client.get(f"/tables/{public_game.pk}/").content.decode()
    assert 'id="chat"' in page and "chat/chat.js" in page
    # Messages are drawn by the script as text: the page never carries them as markup.
    assert "<img src=x" not in page
    assert 'style="' not in page


def test_a_muted_player_is_told_on_the_table_page_before_writing(public_game, bob, carol):
    # The panel offered the box and the reactions as usual: a player muted for three days
    # learnt it only from the error under a message they had typed.
    mod = make_moderator("mod", "game")
    mute = user_mute(moderator=mod, user=bob, duration=timedelta(days=3), reason="insults")

    def panel(user):
        client = Client()
        client.force_login(user)
        page = client.get(f"/tables/{public_game.pk}/").content.decode()
        return page.split('id="chat"')[1].split("</section>")[0]

    muted = panel(bob)
    until = f"{mute.until:%Y-%m-%d %H:%M} UTC"
    assert f"A moderator muted you in chat until {until}" in muted
    assert 'id="chat-form" autocomplete="off" hidden' in muted
    assert 'id="chat-reactions" hidden' in muted
    assert "insults" not in muted  # the reason is for the audit log
    free = panel(carol)
    assert "muted" not in free and 'id="chat-form" autocomplete="off">' in free
