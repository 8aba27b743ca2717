"""The simultaneous events DBf announced (§ 403A1), as the secretariat records them, and the one a club's
tournament was played in (§ 403A1, § 453). Existing tournaments claim none: the old tick named no event."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('federation', '0004_outbox'),
        ('tournaments', '0008_recognised_award_fixed_b'),
    ]

    operations = [
        migrations.CreateModel(
            name='SimultaneousEvent',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=200, verbose_name='name')),
                ('kind', models.CharField(choices=[('klubsolv', 'Klubsølv (§ 403A1, § 433E)'), ('alternative_klubsolv', 'alternative Klubsølv (§ 403A1, § 453)'), ('other', 'another simultaneous event, e.g. Landsdækkende Handicap (§ 403A1, § 433E)')], max_length=24, verbose_name='kind')),
                ('starts_on', models.DateField(verbose_name='first day')),
                ('ends_on', models.DateField(help_text='The same as the first day for a one-day event.', verbose_name='last day')),
                ('note', models.TextField(blank=True, verbose_name='note')),
                ('federation', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='simultaneous_events', to='federation.federation')),
            ],
            options={
                'verbose_name': 'DBf simultaneous event',
                'verbose_name_plural': 'DBf simultaneous events',
                'ordering': ['-starts_on', 'name'],
            },
        ),
        migrations.AddField(
            model_name='tournament',
            name='simultaneous_event',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='tournaments', to='tournaments.simultaneousevent', verbose_name='simultaneous event'),
        ),
        migrations.AddConstraint(
            model_name='simultaneousevent',
            constraint=models.UniqueConstraint(fields=('federation', 'name', 'starts_on'), name='simultaneous_event_unique'),
        ),
        migrations.AddConstraint(
            model_name='simultaneousevent',
            constraint=models.CheckConstraint(condition=models.Q(('ends_on__gte', models.F('starts_on'))), name='simultaneous_event_dates_ordered'),
        ),
    ]
