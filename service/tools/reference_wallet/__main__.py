"""``python -m russian_poker.service.tools.reference_wallet``: the same command as
``russian-poker reference-wallet``."""

from russian_poker.service.tools.reference_wallet.command import reference_wallet

if __name__ == "__main__":
    reference_wallet(prog_name="python -m russian_poker.service.tools.reference_wallet")
