"""The app's own key (net.identity): made once, private, read back the same; a
signature proves it for one nonce and name only; the rated line the seats show."""

from __future__ import annotations

import os

import pytest

from net import protocol as p
from net.identity import Identity, b64, default_path, verify
from net.league.cli import rated_line

pytestmark = pytest.mark.timeout(30)


def test_the_key_is_made_once_private_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("MOTHERLODE_KEY", str(tmp_path / "me" / "identity.key"))
    first = Identity.load_or_create()
    path = default_path()
    assert path.stat().st_mode & 0o777 == 0o600
    assert Identity.load_or_create().public == first.public
    os.chmod(path, 0o644)
    with pytest.raises(PermissionError, match="chmod 600"):
        Identity.load_or_create()
    path.write_text("not a key\n")
    os.chmod(path, 0o600)
    with pytest.raises(OSError, match="not a Motherlode key"):
        Identity.load_or_create()


def test_a_signature_proves_one_nonce_and_one_name():
    me = Identity.generate()
    nonce = os.urandom(32)
    signature = me.prove(b64(nonce), "Ann")
    assert verify(me.public, nonce, "Ann", signature)
    assert not verify(me.public, nonce, "Bob", signature)
    assert not verify(me.public, os.urandom(32), "Ann", signature)
    assert not verify(Identity.generate().public, nonce, "Ann", signature)
    assert not verify("not base64!", nonce, "Ann", signature)


def test_the_rated_line():
    message = p.Rated(game="nuggets", changes=[
        p.RatedChange(seat=0, name="Ann\x1b[31m", before=1512, after=1527, games=14,
                      provisional=False),
        p.RatedChange(seat=1, name="Bob", before=1490, after=1481, games=20, provisional=False),
        p.RatedChange(seat=2, name="Cid", before=None, after=None, games=4, provisional=True),
        p.RatedChange(seat=3, name="Dee", before=None, after=1533, games=10,
                      provisional=False),
    ])
    assert rated_line(message) == ("Rated: Ann 1512 → 1527, +15; Bob 1490 → 1481, -9; "
                                   "Cid new, 4 of 10 games; Dee 1533 (rated after 10 games)")


def test_the_app_proves_its_key_unless_a_door_gave_it_a_scratch_folder(monkeypatch):
    from tui.modes import _identity

    first = _identity()  # made in this test's data folder (conftest's MOTHERLODE_DATA_DIR)
    assert first is not None and _identity().public == first.public
    monkeypatch.setenv("MOTHERLODE_GUEST", "1")
    assert _identity() is None


def test_a_guest_is_named_so_at_the_plain_seat():
    from tui.plain.lobby import seat_name

    guest = p.SeatInfo(seat=0, name="Ann", kind="human", ready=True, connected=True,
                       guest=True)
    assert seat_name(guest) == "Ann (guest)"
    guest.guest = False
    assert seat_name(guest) == "Ann"
