"""Race scenarios: every ``*.toml`` here (``GAME.scenario_package``)."""
