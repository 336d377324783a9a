from labscribe.guards.numbers import Fact, check_numbers

ROWS = Fact("rows of a.csv", 301, "a.csv", frozenset({"rows", "points"}), exact=True)
PEAK = Fact(
    "frequency where V_R peaks",
    5071.0,
    "a.csv",
    frozenset({"peak", "peaks", "resonance"}),
    (frozenset({"frequency", "khz", "hz"}), frozenset({"v_r", "vr"})),
)


def test_check_numbers_accepts_a_scaled_rounded_value() -> None:
    assert check_numbers("$V_R$ peaks at a frequency of 5.07 kHz.", [PEAK]) == (1, [])


def test_check_numbers_flags_a_wrong_peak() -> None:
    checked, mismatches = check_numbers("$V_R$ peaks at a frequency of 7.2 kHz.", [PEAK])
    assert checked == 1
    assert mismatches[0].describe() == (
        "frequency where V_R peaks: the data (a.csv) gives 5071, the report says 7.2 in "
        '"$V_R$ peaks at a frequency of 7.2 kHz."'
    )


def test_check_numbers_counts_are_exact() -> None:
    assert check_numbers("The sweep has 300 points.", [ROWS])[1][0].claimed == (300.0,)
    assert check_numbers("The sweep has 301 points.", [ROWS]) == (1, [])


def test_check_numbers_ignores_sentences_off_the_subject() -> None:
    assert check_numbers("The peak of the phase is at 2 kHz frequency.", [PEAK]) == (0, [])


def test_check_numbers_one_right_statement_settles_a_fact() -> None:
    text = "The resonance frequency of $V_R$ is 5.07 kHz. At 4 kHz frequency $V_R$ has no peak."
    assert check_numbers(text, [PEAK])[1] == []


def test_check_numbers_reads_a_table_row_as_one_claim() -> None:
    table = (
        "\\begin{tabular}{ll} Peak frequency of $V_R$ & 5.071 kHz \\\\ "
        "Rows & 301 \\\\ \\end{tabular}"
    )
    assert check_numbers(table, [PEAK, ROWS]) == (2, [])


def test_check_numbers_holds_a_fitted_value_to_its_own_uncertainty() -> None:
    """A fitted 5070 ± 10 Hz (tolerance 2σ ≈ 0.4 %): 5.2 kHz is within the 2 % a report
    rounds to, but not within what the fit determines; 5.07 kHz is."""
    fitted = Fact(
        "f0 of the resonance fit", 5070.0, "a.csv", frozenset({"resonance"}),
        (frozenset({"v_r"}),), tolerance=2 * 10 / 5070,
    )  # fmt: skip
    assert check_numbers("The resonance of V_R is at 5.07 kHz.", [fitted])[1] == []
    assert check_numbers("The resonance of V_R is at 5.12 kHz.", [fitted])[1] != []
    loose = Fact("f0", 5070.0, "a.csv", frozenset({"resonance"}), (frozenset({"v_r"}),))
    assert check_numbers("The resonance of V_R is at 5.12 kHz.", [loose])[1] == []
