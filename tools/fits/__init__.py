"""The fits: the standard models a column is fitted with and where each starts (shapes,
shape_starts, column_fits), the models an assignment asks for (requested_fits), which is
reported and whether it describes its data (model_choice, verdict, residuals), regressions
on several predictors, repeated measurements (repeats, repeat_statistics, and their words:
repeat_text, repeat_evidence), extremes (extremes, extreme_words), and the quantities that
follow from a fit.
"""
