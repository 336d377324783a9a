"""The fits: the standard models a column is fitted with (shapes, column_fits), the models
an assignment asks for (requested_fits), which is reported and whether it describes its data
(model_choice, verdict, residuals), regressions on several predictors, repeated
measurements, extremes, and the quantities that follow from a fit.
"""
