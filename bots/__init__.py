"""Bots that ship with Kafana: starter kits per language and real opponents for the league."""
