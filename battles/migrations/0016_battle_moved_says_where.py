"""The notification of a battle that moved says where it moved to (battles.log.moves): ``<id>:h<head
seq>`` when an entry is stored, ``<id>:s<projection seq>`` when the worker told its outcome, so a waiting
live request knows without reading the battle again. Migration 0015's triggers stay; only their function
changes. SQLite has no such thing."""
from django.db import migrations

CHANNEL = "shtab_battle_moved"


def _function(battle: str, projection: str) -> str:
    return ("CREATE OR REPLACE FUNCTION shtab_battle_moved() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "IF TG_TABLE_NAME = 'battles_battle' THEN "
            f"PERFORM pg_notify('{CHANNEL}', {battle}); "
            f"ELSE PERFORM pg_notify('{CHANNEL}', {projection}); END IF; "
            "RETURN NULL; END $$")


SAYS_WHERE = _function("NEW.id::text || ':h' || NEW.head_seq::text", "NEW.battle_id::text || ':s' || NEW.seq::text")
NAMES_ONLY = _function("NEW.id::text", "NEW.battle_id::text")  # migration 0015's


def _run(sql: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)
    return run


class Migration(migrations.Migration):
    dependencies = [("battles", "0015_battle_moved_notify")]
    operations = [migrations.RunPython(_run(SAYS_WHERE), _run(NAMES_ONLY))]
