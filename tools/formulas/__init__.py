"""The formulas an assignment writes, read as sympy and bounded before anything is
computed (formula_notation, formula_parse, formula_bounds, formula_eval): their constants,
dimensions and physical ranges, the start values of a fit, the quantities a handout forms
from columns (formed_columns), and what they predict from the folder's parameters
(prediction).
"""
