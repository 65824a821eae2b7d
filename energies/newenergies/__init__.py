"""CATAN: New Energies: the exact rules engine (rules, board, engine, view, invariants).

Standard library only; imports nothing of ``energies`` but :mod:`energies.kit`.
``import energies as en`` offers the names users need (``en.new_game``, ``en.RuleSet``, ...).
"""
