"""Tournaments: knockout, Swiss, gauntlet and Durak tables, played as units of the league machinery, stored in the
league database, resumed after a kill to the same result."""
