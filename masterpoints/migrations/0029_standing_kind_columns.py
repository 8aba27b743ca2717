"""The standings keep each rule book's point kinds in generic columns (``kind1`` … and ``total``), named by the
kind's position in the rule book's kinds, so a rule book adds no column: DBf's BP, SP, GP and MP move from
``bp, sp, gp, mp``, HBS' black, red and master points from ``black, red, master``."""

from django.db import migrations, models
from django.db.models import F

_MODELS = ("Standing", "SeasonStanding")


def _into_kind_columns(apps, schema_editor):
    """One rule book's kinds are 0 where the other's are used: the sum is each row's own kind."""
    for name in _MODELS:
        apps.get_model("masterpoints", name).objects.update(
            bp=F("bp") + F("black"), sp=F("sp") + F("red"), gp=F("gp") + F("master")
        )


def _back_to_named_columns(apps, schema_editor):
    for name in _MODELS:
        apps.get_model("masterpoints", name).objects.filter(federation__scheme="hbs").update(
            black=F("bp"), red=F("sp"), master=F("gp"), bp=0, sp=0, gp=0
        )


class Migration(migrations.Migration):
    dependencies = [("masterpoints", "0028_foreignpoints_decision_reason")]

    operations = [
        migrations.RunPython(_into_kind_columns, _back_to_named_columns, elidable=False),
        *(
            migrations.RemoveIndex(model_name="standing", name=f"standing_fed_{field}")
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
            for old, new in (("bp", "kind1"), ("sp", "kind2"), ("gp", "kind3"), ("mp", "total"))
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
            migrations.AddIndex(
                model_name="standing",
                index=models.Index(fields=["federation", f"-{name}"], name=f"standing_fed_{name}"),
            )
            for name in ("kind1", "kind2", "kind3")
        ),
    ]
