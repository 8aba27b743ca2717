"""Reads of the federation's records."""

from federation.models import Federation


def federation_asked(request, scheme: str) -> Federation | None:
    """The federation of ``scheme`` named by the ``federation`` parameter (GET or POST), else the first one
    by name; ``None`` when there is none of that scheme."""
    federations = Federation.objects.filter(scheme=scheme).order_by("name")
    chosen = request.GET.get("federation") or request.POST.get("federation")
    if chosen and chosen.isdecimal():
        return federations.filter(pk=int(chosen)).first()
    return federations.first()
