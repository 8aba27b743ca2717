"""Migrations run online (issue 33, operations; README § "Migrations on a large ledger"): no migration locks or
rewrites a large table for longer than seconds while the site serves.

Read from the migration files, without a database: every operation of the project's migrations on a large
table (:data:`LARGE_TABLES`, millions of rows on a federation's ledger) is judged by what PostgreSQL does with it.

- An index is built with ``AddIndexConcurrently`` (dropped with ``RemoveIndexConcurrently``) in a migration with
  ``atomic = False``: a plain ``AddIndex`` blocks every write for the whole build.
- A constraint is added ``NOT VALID`` and validated apart (``AddConstraintNotValid`` + ``ValidateConstraint``:
  the check reads the table under a lock that lets writes through); a plain ``AddConstraint`` scans or builds an
  index under a lock that stops writes (a unique one: a unique index built concurrently by ``RunSQL``, then the
  constraint on it).
- A field added with a foreign key, an index, ``unique`` or a database default, or a field altered in a way that
  reaches the database (type, ``NOT NULL``, index, uniqueness; a longer ``CharField`` or a dropped ``NOT NULL``
  are metadata only) rewrites or scans the table under an exclusive lock: add the field plain, then the index
  concurrently and the constraint ``NOT VALID``.
- Data moves (``RunPython``, ``RunSQL``) in the apps that own large tables are batched: a migration with
  ``atomic = False`` that commits every few thousand rows, never one transaction over millions. A
  ``RunPython`` counts as batched when its function loops and commits inside the loop (``transaction.atomic(``
  in its source, :func:`_batched`); a ``RunSQL`` statement is one transaction, so one that updates, inserts
  into or deletes from a large table is refused outright (batch it in ``RunPython``), and so is one that
  builds an index on a large table without ``CONCURRENTLY`` (issue 36).

Tables created in the same migration are empty and exempt. Migrations applied before this wave are allowed by
name with the reason (:data:`HISTORIC`); a new migration is never added there.
"""

from __future__ import annotations

import inspect
import re

import pytest
from django.apps import apps
from django.contrib.postgres.operations import (
    AddConstraintNotValid,
    AddIndexConcurrently,
    RemoveIndexConcurrently,
    ValidateConstraint,
)
from django.db import migrations, models
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations.base import Operation
from django.db.migrations.state import ProjectState

#: The project's apps (their migrations are judged).
PROJECT_APPS = ("federation", "clubs", "office", "tournaments", "masterpoints", "api", "demo")

#: Tables a federation's data makes large, with the reason (figures of the 5-million-award bench, bench/_seed.py).
LARGE_TABLES = {
    ("masterpoints", "award"): "the award ledger: one row per player and award, 5 million on the bench",
    ("masterpoints", "awardexplanation"): "one row per place paid in each scored group",
    ("masterpoints", "standing"): "one row per player and federation, rewritten by each rebuild",
    ("masterpoints", "seasonstanding"): "one row per player and season",
    ("masterpoints", "rankinglistentry"): "one row per player on the ranking list, rewritten daily",
    ("tournaments", "entry"): "one row per pair or team of each tournament",
    ("tournaments", "participation"): "one row per player of each entry",
}

#: Migrations applied before this wave (issue 33) that the rules above refuse: they have run on every database
#: there is and are never run again, so changing them would change nothing; each says what it did.
HISTORIC = {
    ("masterpoints", "0002_initial"): "the ledger's first foreign keys, indexes and constraints, on an empty table",
    (
        "masterpoints",
        "0009_award_correction",
    ): "a correction's foreign key and its backfill in one transaction",
    ("masterpoints", "0010_transition_credit"): "the transition credits found from the ledger in one transaction",
    ("masterpoints", "0018_award_explanation_store"): "issue 16: the explanation store's foreign key on the ledger",
    ("masterpoints", "0019_move_award_explanations"): "issue 16: every explanation moved in one transaction",
    ("masterpoints", "0022_standing_fed_player"): "issue 16: a plain index on the standings",
    (
        "masterpoints",
        "0023_award_player_day_index",
    ): "issue 16: a plain index built on the ledger, the old one dropped",
    ("tournaments", "0005_tournament_one_current_per_event"): "a backfill of tournaments in one transaction",
    ("tournaments", "0007_tournament_playing_time"): "a backfill of tournaments' playing times in one transaction",
    ("tournaments", "0010_tournament_and_upload_sanction"): "a backfill of the sanction link in one transaction",
}

#: Field attributes that never reach the database (Django keeps defaults in Python).
QUIET_ATTRIBUTES = {*models.Field.non_db_attrs, "default"}
#: Operations whose lock is brief whatever the table's size.
QUICK = (
    migrations.DeleteModel,
    migrations.RemoveField,
    migrations.RemoveConstraint,
    migrations.RenameField,
    migrations.RenameModel,
    migrations.RenameIndex,
    migrations.AlterModelOptions,
    migrations.AlterModelManagers,
    migrations.AlterModelTable,
    migrations.AlterModelTableComment,
    ValidateConstraint,
    AddConstraintNotValid,
)


def _field_problem(operation: Operation, state: ProjectState, app: str) -> str | None:
    """Why adding or altering this field locks its table for long, or ``None``."""
    field = operation.field
    if isinstance(operation, migrations.AddField):
        if field.is_relation and getattr(field, "db_constraint", False):
            return "adds a foreign key (validated and indexed under lock): add it without, then index and validate"
        if field.db_index or field.unique:
            return "adds an indexed or unique field (index built under lock): add it plain, index concurrently"
        if field.db_default is not models.NOT_PROVIDED:
            return "adds a field with a database default (a volatile one rewrites the table): backfill in batches"
        return None
    old = state.models[app, operation.model_name_lower].fields[operation.name]
    _name, old_path, _args, old_kwargs = old.deconstruct()
    _name, new_path, _args, new_kwargs = field.deconstruct()
    changed = {
        key
        for key in old_kwargs.keys() | new_kwargs.keys()
        if key not in QUIET_ATTRIBUTES and old_kwargs.get(key) != new_kwargs.get(key)
    }
    if new_kwargs.get("null") and not old_kwargs.get("null"):
        changed.discard("null")  # DROP NOT NULL: metadata only
    if old_path == new_path == "django.db.models.CharField" and new_kwargs["max_length"] > old_kwargs["max_length"]:
        changed.discard("max_length")  # a longer varchar: metadata only
    for dropped in ("db_index", "unique", "db_constraint"):
        if getattr(old, dropped, False) and not getattr(field, dropped, False):
            changed.discard(dropped)  # an index or a constraint dropped: a brief lock
    if old_path != new_path or changed:
        what = ", ".join(sorted(changed)) or "its type"
        return f"alters {what} (a rewrite or a scan under an exclusive lock): add a new field and backfill in batches"
    return None


def _large_table_names() -> set[str]:
    return {apps.get_model(app, model)._meta.db_table.lower() for app, model in LARGE_TABLES}


_NAME = r'(?:only\s+)?"?(?:\w+"?\.)?"?(\w+)"?'
#: An index built without CONCURRENTLY, and a statement that writes rows, naming their table.
_PLAIN_INDEX = re.compile(r"\bcreate\s+(?:unique\s+)?index\s+(?!concurrently\b)[^;]*?\bon\s+" + _NAME, re.I)
_ROW_WRITE = re.compile(r"\b(?:update|delete\s+from|insert\s+into)\s+" + _NAME, re.I)


def _sql_text(operation: migrations.RunSQL) -> str:
    statements = operation.sql if isinstance(operation.sql, list | tuple) else [operation.sql]
    return ";\n".join(part[0] if isinstance(part, list | tuple) else str(part) for part in statements)


def _sql_problem(operation: migrations.RunSQL) -> str | None:
    """Why a ``RunSQL`` blocks writes to a large table or rewrites it in one transaction, or ``None``."""
    sql, large = _sql_text(operation), _large_table_names()
    if any(match.group(1).lower() in large for match in _PLAIN_INDEX.finditer(sql)):
        return "builds an index on a large table without CONCURRENTLY: CREATE INDEX CONCURRENTLY (atomic = False)"
    if any(match.group(1).lower() in large for match in _ROW_WRITE.finditer(sql)):
        return "writes a large table's rows in one statement (one transaction): backfill in batches with RunPython"
    return None


def _batched(operation: migrations.RunPython) -> bool:
    """Whether a ``RunPython`` commits as it goes: its function loops and opens a transaction per batch (or
    does nothing at all)."""
    if operation.code is migrations.RunPython.noop:
        return True
    source = inspect.getsource(operation.code)
    return "transaction.atomic(" in source and bool(re.search(r"^\s+(for|while)\b", source, re.M))


def _problem(operation: Operation, state: ProjectState, app: str, migration, created: set) -> str | None:
    """Why ``operation`` (of ``migration`` in ``app``) locks a large table for more than seconds, or ``None``."""
    if isinstance(operation, migrations.SeparateDatabaseAndState):
        found = [_problem(inner, state, app, migration, created) for inner in operation.database_operations]
        return "; ".join(problem for problem in found if problem) or None
    if isinstance(operation, migrations.RunPython | migrations.RunSQL):
        if app in {owner for owner, _model in LARGE_TABLES} and migration.atomic:
            return "moves data in one transaction: batch it in a migration with atomic = False"
        if isinstance(operation, migrations.RunSQL):
            return _sql_problem(operation)
        if app in {owner for owner, _model in LARGE_TABLES} and not _batched(operation):
            return "moves data without committing per batch: loop over batches, each in transaction.atomic()"
        return None
    model = getattr(operation, "model_name_lower", None) or getattr(operation, "name_lower", None)
    if (app, model) not in LARGE_TABLES or (app, model) in created or isinstance(operation, QUICK):
        return None
    if isinstance(operation, AddIndexConcurrently | RemoveIndexConcurrently):
        return (
            "builds or drops an index concurrently inside a transaction: set atomic = False"
            if migration.atomic
            else None
        )
    if isinstance(operation, migrations.AddIndex):
        return "builds an index under a lock that stops writes: use AddIndexConcurrently (atomic = False)"
    if isinstance(operation, migrations.RemoveIndex):
        return "drops an index queued behind every running query: use RemoveIndexConcurrently (atomic = False)"
    if isinstance(operation, migrations.AddConstraint):
        return "adds a constraint under lock: AddConstraintNotValid then ValidateConstraint (unique: an index first)"
    if isinstance(operation, migrations.AddField | migrations.AlterField):
        return _field_problem(operation, state, app)
    if isinstance(operation, migrations.AlterUniqueTogether | migrations.AlterIndexTogether):
        return "changes unique_together or index_together (indexes built under lock): use AddIndexConcurrently"
    return f"{type(operation).__name__} is not known to run online: judge it and teach this test"


def migration_problems(migration, state: ProjectState) -> list[str]:
    """The problems of ``migration`` against ``state`` (the project before it), advancing ``state`` past it."""
    app, found, created = migration.app_label, [], set()
    for operation in migration.operations:
        if isinstance(operation, migrations.CreateModel):
            created.add((app, operation.name_lower))
        problem = _problem(operation, state, app, migration, created)
        if problem:
            found.append(f"{app}.{migration.name}: {operation.describe()}: {problem}")
        operation.state_forwards(app, state)
    return found


def every_migration_in_order() -> tuple[MigrationLoader, list]:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    plan = []
    for leaf in sorted(loader.graph.leaf_nodes()):
        plan += [node for node in loader.graph.forwards_plan(leaf) if node not in plan]
    return loader, plan


def problems_by_migration() -> dict[tuple[str, str], list[str]]:
    loader, plan = every_migration_in_order()
    state = ProjectState(real_apps=loader.unmigrated_apps)
    found = {}
    for node in plan:
        migration = loader.disk_migrations[node]
        problems = migration_problems(migration, state)
        if problems and node[0] in PROJECT_APPS:
            found[node] = problems
    return found


@pytest.fixture(scope="module")
def problems():
    return problems_by_migration()


def test_no_migration_of_this_wave_or_later_locks_a_large_table(problems):
    new = [problem for node, found in problems.items() if node not in HISTORIC for problem in found]
    assert new == [], "\n".join(new)


def test_every_historic_migration_allowed_exists_and_breaks_a_rule(problems):
    loader, _plan = every_migration_in_order()
    assert set(HISTORIC) <= set(loader.disk_migrations)
    assert sorted(set(HISTORIC) - set(problems)) == []


def leaf_state() -> ProjectState:
    return MigrationLoader(None, ignore_no_migrations=True).project_state()


def judged(*operations, atomic: bool = True, app: str = "masterpoints") -> list[str]:
    migration = migrations.Migration("0999_example", app)
    migration.operations, migration.atomic = list(operations), atomic
    return migration_problems(migration, leaf_state())


def test_a_plain_index_on_the_ledger_is_refused_and_a_concurrent_one_outside_a_transaction_passes():
    index = models.Index(fields=["awarded_on"], name="award_day_example")
    assert "AddIndexConcurrently" in judged(migrations.AddIndex("award", index))[0]
    assert "atomic = False" in judged(AddIndexConcurrently("award", index))[0]
    assert judged(AddIndexConcurrently("award", index), atomic=False) == []
    assert judged(RemoveIndexConcurrently("award", "award_player_day"), atomic=False) == []


def test_a_plain_index_on_a_small_table_passes():
    index = models.Index(fields=["created_at"], name="outbox_created_example")
    assert judged(migrations.AddIndex("outbox", index), app="federation") == []


def test_a_constraint_on_the_ledger_is_added_not_valid_and_validated_apart():
    check = models.CheckConstraint(condition=models.Q(units__lt=10**9), name="award_units_bound_example")
    assert "AddConstraintNotValid" in judged(migrations.AddConstraint("award", check))[0]
    assert judged(AddConstraintNotValid("award", check), ValidateConstraint("award", check.name)) == []


def test_fields_added_to_the_ledger_pass_only_without_index_foreign_key_or_database_default():
    assert judged(migrations.AddField("award", "note_example", models.CharField(max_length=20, default=""))) == []
    assert judged(migrations.AddField("award", "flag_example", models.BooleanField(null=True))) == []
    refused = [
        models.CharField(max_length=20, default="", db_index=True),
        models.ForeignKey("federation.Federation", on_delete=models.PROTECT, null=True),
        models.DateTimeField(db_default=models.functions.Now()),
    ]
    for field in refused:
        assert len(judged(migrations.AddField("award", "new_example", field))) == 1


def test_an_altered_field_passes_only_when_the_database_is_not_rewritten_or_scanned():
    award = leaf_state().models["masterpoints", "award"]
    reason = award.fields["reason"].clone()
    reason.verbose_name = "why"
    assert judged(migrations.AlterField("award", "reason", reason)) == []
    longer = award.fields["reason"].clone()
    longer.max_length += 100
    assert judged(migrations.AlterField("award", "reason", longer)) == []
    assert "TextField" not in judged(migrations.AlterField("award", "reason", models.TextField()))[0]
    assert len(judged(migrations.AlterField("award", "reason", models.TextField()))) == 1
    assert len(judged(migrations.AlterField("award", "units", models.BigIntegerField()))) == 1


def test_a_data_move_in_the_ledgers_app_is_batched_outside_one_transaction():
    move = migrations.RunPython(migrations.RunPython.noop)
    assert "atomic = False" in judged(move)[0]
    assert judged(move, atomic=False) == []


def test_a_new_table_may_be_indexed_in_the_migration_that_creates_it():
    create = migrations.CreateModel("Entry", [("id", models.BigAutoField(primary_key=True))])
    index = models.Index(fields=["id"], name="entry_example")
    state = ProjectState()
    migration = migrations.Migration("0001_example", "tournaments")
    migration.operations = [create, migrations.AddIndex("entry", index)]
    assert migration_problems(migration, state) == []


def test_a_plain_index_on_the_ledger_or_the_standings_is_refused_outside_a_transaction_too():
    """Issue 36: ``atomic = False`` alone does not make an index build online; only a concurrent one is."""
    for model in ("award", "standing", "seasonstanding", "rankinglistentry"):
        index = models.Index(fields=["federation"], name=f"{model}_example")
        assert "AddIndexConcurrently" in judged(migrations.AddIndex(model, index), atomic=False)[0]
        assert judged(AddIndexConcurrently(model, index), atomic=False) == []


def test_an_index_built_by_sql_on_a_large_table_must_be_concurrent():
    plain = migrations.RunSQL('CREATE INDEX award_day_example ON "masterpoints_award" (awarded_on)')
    assert "CONCURRENTLY" in judged(plain, atomic=False)[0]
    unique = migrations.RunSQL(["CREATE UNIQUE INDEX s_example ON masterpoints_standing (player_id, sort_key)"])
    assert "CONCURRENTLY" in judged(unique, atomic=False)[0]
    online = migrations.RunSQL(
        "CREATE INDEX CONCURRENTLY award_day_example ON masterpoints_award (awarded_on)",
        reverse_sql="DROP INDEX CONCURRENTLY award_day_example",
    )
    assert judged(online, atomic=False) == []
    small = migrations.RunSQL("CREATE INDEX outbox_example ON federation_outbox (created_at)")
    assert judged(small, atomic=False, app="federation") == []


def test_a_backfill_by_one_sql_statement_on_a_large_table_is_refused():
    for sql in (
        "UPDATE masterpoints_award SET reason = '' WHERE reason IS NULL",
        ["INSERT INTO masterpoints_seasonstanding (player_id) SELECT id FROM federation_player"],
        [("DELETE FROM masterpoints_rankinglistentry WHERE score = %s", [0])],
    ):
        assert "in batches" in judged(migrations.RunSQL(sql), atomic=False)[0]
    assert judged(migrations.RunSQL("UPDATE federation_outbox SET tries = 0"), atomic=False, app="federation") == []


def _one_pass(apps, schema_editor):
    apps.get_model("masterpoints", "Award").objects.filter(reason="").update(reason="-")


def _in_batches(apps, schema_editor):
    from django.db import transaction

    award = apps.get_model("masterpoints", "Award")
    last = 0
    while True:
        with transaction.atomic():
            ids = list(award.objects.filter(pk__gt=last).order_by("pk").values_list("pk", flat=True)[:5000])
            if not ids:
                return
            award.objects.filter(pk__in=ids, reason="").update(reason="-")
        last = ids[-1]


def test_a_python_backfill_of_the_ledger_commits_per_batch():
    assert "per batch" in judged(migrations.RunPython(_one_pass), atomic=False)[0]
    assert judged(migrations.RunPython(_in_batches), atomic=False) == []
