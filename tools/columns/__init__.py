"""What a table's columns are once read: their names and units (column, units,
si_units), which is the response and which the predictor (roles), which only count or
number rows, which a handout names by word, symbol or place, and the values the prose
states for them (stated_units, stated_precision, stated_series).
"""
