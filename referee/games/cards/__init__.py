"""The card games: Durak (a deal, and a session of deals), Gapa and Gaps/Montana, with the cards they share
(``_cards``, whose helpers for bots are exported here) and each game's view."""

from ._cards import beats, card_text, mask_of, parse_card, rank_of, suit_of

__all__ = ["beats", "card_text", "mask_of", "parse_card", "rank_of", "suit_of"]
