"""The standings keep each rule book's point kinds in generic columns (``kind1`` … and ``total``), named by the
kind's position in the rule book's kinds, so a rule book adds no column: DBf's BP, SP, GP and MP move from
``bp, sp, gp, mp``, HBS' black, red and master points from ``black, red, master``.

Online (README § "Migrations on a large ledger"): HBS' rows are moved in batches of primary keys, each in its
own transaction (a DBf row has no HBS points and is not touched); the indexes are dropped and built
concurrently; a column is dropped or renamed under a brief lock. Standings are derived from the ledger: a row an
update wrote between its batch and the drop is put right by the next rebuild (nightly, or
``recompute_standings --full``)."""

from django.db import migrations, models, transaction
from django.db.models import F, Max, Min, Q

from federation.online_migrations import AddIndexOnline, RemoveIndexOnline

_MODELS = ("Standing", "SeasonStanding")
BATCH = 5000
#: (old column, new column): DBf's columns are renamed; HBS' are added into them first.
RENAMED = (("bp", "kind1"), ("sp", "kind2"), ("gp", "kind3"), ("mp", "total"))
HBS_INTO = {"bp": "black", "sp": "red", "gp": "master"}


def _batches(model):
    """The primary-key ranges of ``model``'s rows, :data:`BATCH` keys each."""
    bounds = model.objects.aggregate(low=Min("pk"), high=Max("pk"))
    if bounds["low"] is None:
        return
    for start in range(bounds["low"], bounds["high"] + 1, BATCH):
        yield Q(pk__gte=start, pk__lt=start + BATCH)


def _into_kind_columns(apps, schema_editor):
    """Each HBS row's black, red and master points into the columns DBf's BP, SP and GP leave (one rule book's
    kinds are 0 where the other's are used)."""
    for name in _MODELS:
        model = apps.get_model("masterpoints", name)
        for part in _batches(model):
            with transaction.atomic():
                model.objects.filter(part).exclude(black=0, red=0, master=0).update(
                    **{ours: F(ours) + F(theirs) for ours, theirs in HBS_INTO.items()}
                )


def _back_to_named_columns(apps, schema_editor):
    for name in _MODELS:
        model = apps.get_model("masterpoints", name)
        for part in _batches(model):
            with transaction.atomic():
                model.objects.filter(part, federation__scheme="hbs").update(
                    **{theirs: F(ours) for ours, theirs in HBS_INTO.items()}, **dict.fromkeys(HBS_INTO, 0)
                )


class Migration(migrations.Migration):
    atomic = False
    dependencies = [("masterpoints", "0028_foreignpoints_decision_reason")]

    operations = [
        migrations.RunPython(_into_kind_columns, _back_to_named_columns, elidable=False),
        *(
            RemoveIndexOnline(model_name="standing", name=f"standing_fed_{field}")
            for field in ("bp", "sp", "gp", "black", "red", "master")
        ),
        *(
            migrations.RemoveField(model_name=model, name=field)
            for model in ("standing", "seasonstanding")
            for field in ("black", "red", "master")
        ),
        *(
            migrations.RenameField(model_name=model, old_name=old, new_name=new)
            for model in ("standing", "seasonstanding")
            for old, new in RENAMED
        ),
        *(
            migrations.AlterField(
                model_name=model, name=name, field=models.IntegerField(default=0, verbose_name=verbose_name)
            )
            for model in ("standing", "seasonstanding")
            for name, verbose_name in (
                ("kind1", "first kind's points"),
                ("kind2", "second kind's points"),
                ("kind3", "third kind's points"),
                ("total", "total"),
            )
        ),
        *(
            AddIndexOnline(
                model_name="standing",
                index=models.Index(fields=["federation", f"-{name}"], name=f"standing_fed_{name}"),
            )
            for name in ("kind1", "kind2", "kind3")
        ),
    ]
