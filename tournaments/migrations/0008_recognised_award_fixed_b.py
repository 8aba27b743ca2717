"""HBS fixed B (Način bodovanja 3, alternative; H-8, H-17): an entry of the list of recognised tournaments may
fix B in advance, or by bands of field size, per kind; existing entries keep the formula (no fixed B)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0007_tournament_playing_time'),
    ]

    operations = [
        migrations.AddField(
            model_name='recognisedaward',
            name='bands',
            field=models.JSONField(blank=True, default=list, verbose_name='B by field size'),
        ),
        migrations.AddField(
            model_name='recognisedaward',
            name='first_place',
            field=models.DecimalField(blank=True, decimal_places=2, help_text='Points for first place fixed in advance (H-8); empty: the formula.', max_digits=6, null=True, verbose_name='fixed B'),
        ),
        migrations.AddConstraint(
            model_name='recognisedaward',
            constraint=models.CheckConstraint(condition=models.Q(('first_place__isnull', True), models.Q(('first_place__gt', 0), ('first_place__lte', 1000)), _connector='OR'), name='recognised_fixed_b_bounded'),
        ),
    ]
