"""The undealt cards as far as the rules let anyone know them (docs/rules.md §1, §5.4, §8).

The order of a stacked deck is known. Discards that go back into the deck
(``discards_return_to_deck``) go "at random places": the other cards keep their order, but a
returned card may come up at any later draw. So the next card is either the top known card
or one of the returned ones — and when none are out there, it is exactly the top card.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["DeckMismatch", "Undealt"]


class DeckMismatch(AssertionError):
    """A card came off the deck that the rules say cannot be next."""


class Undealt:
    def __init__(self, cards: Iterable[str]) -> None:
        self.known = list(cards)
        self.returned: set[str] = set()

    @property
    def predictable(self) -> bool:
        return not self.returned

    def take(self, drawn: str) -> str:
        """Check that ``drawn`` may be the next card and take it off the deck."""
        if self.known and drawn == self.known[0]:
            self.known.pop(0)
        elif drawn in self.returned:
            self.returned.remove(drawn)
        else:
            top = self.known[0] if self.known else "nothing"
            options = " or one of " + " ".join(sorted(self.returned)) if self.returned else ""
            raise DeckMismatch(f"drew {drawn}; the next card is {top}{options}")
        return drawn

    def put_back(self, discards: Iterable[str]) -> None:
        self.returned |= set(discards)
