"""SAP Banking Services 7.0 at 150 million accounts (IBM technical brief v1.10, 2012).

So far only ``published`` (the brief's Tables 3 and 4 as tidy frames, each value with its
citation); the chapter's models, figures and ledger rows come later.
"""
