"""The card games: Durak (a deal, and a session of deals), Gapa and Gaps/Montana, with the cards they share
(``_cards``) and each game's view."""
