"""Hostile calls of the Python API a teacher or student makes directly (Game, play, charts):
a wrong argument gets a ValueError that says what is wanted, and changes nothing."""

from __future__ import annotations

import pytest

import energies as en

NOT_SEATS = [-1, 4, True, 1.0, "0", None]


@pytest.mark.parametrize("seat", NOT_SEATS)
def test_scores_of_a_seat_that_is_not_at_the_table_are_refused(seat):
    # -1 used to answer for the last seat and 4 raised a bare IndexError
    game = en.new_game(seed=1)
    for ask in (game.victory_points, game.local_footprint, game.view):
        with pytest.raises(ValueError, match="seat must be a seat number from 0 to 3"):
            ask(seat)
    assert game.victory_points(3) == game.snapshot()["seats"][3]["vp"]
