"""``companion ca``: the table's own certificate authority, for HTTPS the tablets trust.

Why a command: the authority's key signs the page's certificate, and a copy of the Pi's
card must not be able to sign anything else. ``export`` moves the key to a file off the
Pi (a USB stick, a laptop); the Pi then keeps serving the certificate it has, and refuses
to sign one for a new address with one sentence saying where to put the key back.
"""

from __future__ import annotations

from pathlib import Path

import click

from companion.commands.group import Context
from web.tls import authority_certificate, export_authority_key, fingerprint


@click.group(name="ca")
def ca() -> None:
    """The table's certificate authority (HTTPS)."""


@ca.command(name="export")
@click.argument("to", type=click.Path(path_type=Path))
@click.pass_obj
def export_command(obj: Context, to: Path) -> None:
    """Move the authority's key to TO (a file or folder off the Pi) and delete it here."""
    folder = obj.config.data_dir
    where = export_authority_key(folder, to)
    click.echo(f"The authority's key is now only at {where}; keep it safe and off the Pi.")
    click.echo(
        "Certificates for new addresses are refused until it is copied back to "
        f"{folder / 'tls-ca-key.pem'} (chmod 600)."
    )


@ca.command(name="fingerprint")
@click.pass_obj
def fingerprint_command(obj: Context) -> None:
    """Print the authority's SHA-256 fingerprint, to check the one a tablet shows."""
    found = authority_certificate(obj.config.data_dir)
    if found is None:
        raise click.ClickException("HTTPS was never set up: start the companion with HTTPS on.")
    click.echo(fingerprint(found))
