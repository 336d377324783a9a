"""What in a handout's wording asks the student for work: the words of headings that set
tasks, the commands of English, German and Chinese handouts, the markers of a numbered task
("Task 3:", "Q2.", "Aufgabe 2:"), the blanks of a worksheet, and the closing instructions
that ask for nothing but handing in.

Every pattern here runs on untrusted text, so each has one way to match a run of blanks,
letters or digits (linear time: tests/tools/analysis/test_long_lines.py).
"""

from __future__ import annotations

import re

# The word for "tasks" in Slovene ("Naloge"), Croatian and Serbian ("Zadaci"), Slovak
# ("Úlohy"), Hungarian ("Feladatok"), Danish and Norwegian ("Opgaver", "Oppgaver"), Swedish
# ("Uppgifter"), Finnish ("Tehtävät"), Turkish ("Görevler"), Romanian ("Sarcini"),
# Vietnamese ("Nhiệm vụ"), Indonesian ("Tugas"), Ukrainian ("Завдання"), Greek ("Εργασίες"),
# Japanese ("課題", "設問") and Korean ("과제"): a heading over tasks, and one that names them.
TASKS_WORDS = (
    r"\bnalog[ae]\b|\bzada(?:ci|tak)\b|[úu]loh[ay]\b|feladat|\bop+gaver?\b|\buppgift"
    r"|\bteht[äa]v|\bg[öo]rev|\bsarcin|nhi[ệe]m v[ụu]|\btugas\b|завдан|εργασ|課題|設問|과제"
)
# Headings and introductions of the lists whose items are tasks whatever their first word.
TASK_HEADING = re.compile(
    r"goal|aim|objective|task|requirement|required|question|exercise|assignment|deliverable"
    r"|report|analysis|evaluation|calculation|discuss|problem|post-?lab|pre-?lab|write-?up"
    r"|to ?do|checklist|\bwork\b|arbeitsauftr|aufgabe|auswertung|ziel|fragen|gefordert"
    r"|verlangt|anforderung"
    # French, Spanish and Italian handouts: "Travail demandé", "Consignes", "Consignas", "Tareas",
    # "Cuestiones", "Preguntas", "Ejercicios", "Compiti", "Domande", "Esercizi", "Consegne"
    r"|travail\s+demand|consign[ae]s?|t[âa]ches|tareas?|cuestion|preguntas?|ejercicios?"
    # the French and Spanish analysis sections: "Exploitation (des mesures)", "Traitement des
    # données", "Analyse des résultats", "Análisis de datos", "Tratamiento de datos"
    r"|exploitation|traitement|analyse|an[áa]lisis|tratamiento"
    r"|travail\s+[àa]\s+(?:effectuer|faire|r[ée]aliser)|manipulations?\s+[àa]\s+faire"
    r"|actividades|compiti|domande|esercizi|consegn[ae]"
    # Italian and Portuguese: "Elaborazione richiesta", "Analisi dei dati", "Quesiti",
    # "Tarefas", "Questões", "Análise dos dados", "Pede-se", "Atividades", "Exercícios"
    r"|elaborazion|richiest|analisi|quesiti|tarefas?|quest[õo]es|an[áa]lise|pede-se"
    r"|atividades|exerc[íi]cios|tratamento"
    r"|目的|任务|要求|内容|思考|步骤|问题|数据处理|作业"
    # Polish "Zadania", "Opracowanie wyników", "Pytania"; Czech "Úkoly", "Zpracování";
    # Dutch "Opdrachten", "Vragen", "Verwerking"; Russian "Задание", "Обработка результатов"
    r"|zadani[ae]|opracowanie|pytania|[úu]kol|zpracov[áa]n|opdracht|vragen|verwerking"
    r"|задани|задач|обработк|вопрос"
    # Scandinavian, Japanese and Korean analysis sections: "Databehandling", "データ処理",
    # "考察", "데이터 처리", "분석"
    r"|databehandling|analys|データ処理|解析|考察|데이터\s*처리|분석"
    rf"|{TASKS_WORDS}"
    # a sentence that introduces what the student hands in: "What we want from you:",
    # "Your report should contain:", "We ask you to give:", "Gesucht sind:"
    r"|want(?:ed)?\s+from\s+you|(?:we|i)\s+(?:want|expect|ask)\s+you|you\s+should\s+give"
    r"|(?:report|write-?up)\s+(?:should|must|will)\s+(?:contain|include|give)"
    r"|gesucht|zu\s+bestimmen|soll(?:te)?\s+enthalten|请给出"
    # "Da determinare:", "A determinar:", "À déterminer :", "Do wyznaczenia:"
    r"|da\s+(?:determinare|calcolare|ricavare)|(?:a|por)\s+determinar|[àa]\s+d[ée]terminer"
    r"|do\s+wyznaczenia",
    re.IGNORECASE,
)
# "Mean" in the languages whose handouts have no word for it elsewhere here: Norwegian and
# Danish "middelverdi", "gjennomsnitt", "gennemsnit", Swedish "medelvärde", Finnish
# "keskiarvo", Turkish "ortalama", Hungarian "átlag", Greek "μέση τιμή", Romanian "medie",
# Vietnamese "trung bình", Indonesian "rata-rata", Ukrainian "середнє", Korean "평균".
MEAN_ELSEWHERE = (
    r"middelverdi|gjennomsnitt|gennemsnit|medelv[äa]rde|keskiarvo|ortalama|[áa]tlag|μέση"
    r"|\bmedie\b|trung b[ìi]nh|rata-rata|середн|평균"
)
# Headings of the procedure: their steps are done at the bench, not in the report, though
# "步骤" and "Durchführung" read like work set.
PROCEDURE_HEADING = re.compile(
    r"procedure|method|set-?up|apparatus|equipment|durchf[üu]hrung|versuchsaufbau|aufbau"
    r"|mode\s+op[ée]ratoire|protocole|montage|manipulation|procedimiento|montaje|步骤|仪器|装置"
    r"|procedimento|montagem|strumentazione|esecuzione"
    r"|uk[łl]ad\s+pomiarow|aparatura|przebieg|wykonanie|opstelling|uitvoering|werkwijze"
    r"|postup|pom[ůu]cky|оборудовани|установк|ход\s+работы|порядок\s+выполнени",
    re.IGNORECASE,
)
# What a step of the procedure asks for the report, not only at the bench: a result worked
# out ("fit a line ... record the slope", "compute the mean"), which keeps it a task.
ANALYSIS_WORD = re.compile(
    r"\b(?:fit|plot|graph|slope|intercept|calculat|comput(?:e|ing)\b|determin|estimat|mean|average"
    r"|uncertaint|error|compar|deriv|regress|berechn|bestimm|auftrag|trag\w*\s+sie|steigung"
    r"|mittelwert|calcul|trac|ajust|moyenne|pente|increment|promedio|pendiente"
    r"|oblicz|wyznacz|вычисл|определ|постро|рассчита)"
    r"|计算|拟合|作图|求出|求得|平均|斜率|不确定度",
    re.IGNORECASE,
)
# The word that names a handout's aim.
AIM_WORD = (
    r"(?:aims?|objectives?|purpose|goals?|ziele?|zielsetzung|versuchsziel|lernziele"
    r"|objectifs?|objetivos?|obiettiv[oi]|finalidad|prop[óo]sito|scopo|zweck"
    # French "But de la manipulation", "But du TP", "But :", "**But.** Mesurer ..." (not
    # the English "but")
    r"|buts?(?=\s+d[eu]s?\b|\s*[:：]?\s*$|\.\s+[A-ZÀ-Ý])"
    # Polish "Cel ćwiczenia", Czech "Cíl", Dutch "Doel", Russian "Цель работы"
    r"|cel(?=\s+(?:[ćc]wiczenia|pracy|do[śs]wiadczenia)\b|\s*[:：]?\s*$)|c[íi]l|doel(?:stelling)?"
    r"|цель|实验目的|目的"
    # Danish and Norwegian "Formål", Swedish "Syfte" and "Frågeställningar" (the questions the
    # experiment answers, which its tasks then work out), Korean "목적", "research questions"
    r"|form[åa]l|syfte|fr[åa]gest[äa]llning\w*|목적|research\s+questions?)"
)
# A heading over the statement of the problem ("Aufgabenstellung", "Problem statement"): its
# prose says what the experiment is for, as an aim section does; its list sets the tasks.
STATEMENT_HEADING = re.compile(
    r"^(?:\S+\s+)?(?:aufgabenstellung|problemstellung|fragestellung|problem\s+statement"
    r"|statement\s+of\s+the\s+problem|planteamiento|[ée]nonc[ée]|enunciado)\b",
    re.IGNORECASE,
)
# An Aim heading names it among at most six words: "Aim", "Objectives", "I. OBJECTIVE",
# "Aims and objectives", "Learning objectives", "Versuchsziel", "一、实验目的".
AIM_HEADING = re.compile(rf"^(?:\S+\s+){{0,5}}?{AIM_WORD}(?:\s+\S+){{0,5}}?\s*[:：]?$",
                         re.IGNORECASE)  # fmt: skip
# A heading that names the aim and the tasks together ("Aims and tasks") heads tasks.
TASKS_TOO = re.compile(r"task|question|exercise|assignment|aufgabe|任务|问题|要求|内容",
                        re.IGNORECASE)  # fmt: skip
# A heading that names the tasks themselves, not the work in general ("内容", "Contents").
TASKS_NAMED = re.compile(
    r"\btasks?\b|\bquestions\b|\bexercises?\b|\baufgaben?\b|任务|zadani[ae]|[úu]kol[yů]?\b"
    r"|задани[ея]|задачи|\btareas?\b|\btarefas?\b|\bcompiti\b|travail\s+demand|\bopdracht"
    rf"|{TASKS_WORDS}",
    re.IGNORECASE,
)
# A heading over the working out of the data ("数据处理及作图", "Auswertung", "Data analysis",
# "Traitement des données", "Opracowanie wyników"): a list under it sets the tasks the aim's
# list only announces.
ANALYSIS_HEADING = re.compile(
    r"数据处理|数据分析|auswertung|\banaly[sz]|\bevaluation|\bdata\s+processing|exploitation"
    r"|traitement|elaborazion|analisi|an[áa]lis[ei]s|tratamiento|tratamento|opracowanie"
    r"|zpracov[áa]n|verwerking|обработк|обробк|databehandling|データ処理|解析|데이터\s*처리"
    r"|분석|veri\s+analiz|pengolahan\s+data|x[ửu]\s+l[ýy]\s+s[ốo]\s+li[ệe]u",
    re.IGNORECASE,
)
# A heading of the theory: its formulas and sentences set no task.
THEORY_HEADING = re.compile(
    r"\btheor|\bprincip|\bgrundlage|原理|\bteori|\bтеори|\bbackground\b", re.IGNORECASE
)
# A heading over the description of the data files and their columns ("Dane", "Messdaten",
# "Data files"): its items say what a column holds, they set no task.
DATA_HEADING = re.compile(
    r"^(?:\W*\d*\W*)(?:the\s+)?(?:mess|raw\s+|measured\s+)?(?:data|daten|dane|données|donnees|"
    r"dati|datos|dados|data\s+files?|datendateien|fichiers?\s+de\s+donn[ée]es|archivos?\s+de\s+datos"
    r"|file\s+(?:di\s+)?dati|pliki\s+danych|файлы\s+данных|данные|údaje|naměřené\s+hodnoty"
    r"|meetgegevens|databestanden|(?:实验|原始|测量)?数据(?:文件)?)"
    # a remark on the files after the heading, bold or not: "数据文件（CSV，逗号分隔）", "Data
    # (CSV)", "**File di dati** (CSV, unità secondo i codici UNECE Rec. 20: MTR = metro, …):"
    # (a remark the line wraps runs on to the next)
    r"[*_]{0,2}\s*(?:[（(][^）)]{0,200}(?:[）)]|$))?\s*[:：]?[*_]{0,2}$",
    re.IGNORECASE,
)
# The aim stated on its own line: "Aim: to measure g", "实验目的：测量 ...", and as a run-in
# heading ending in a full stop: "Objective. Determine the elastic properties ...".
AIM_INLINE = re.compile(
    rf"^(?:the\s+)?{AIM_WORD}(?:\s+of\s+(?:the|this)\s+\w+)?\s*(?:[:：]|\.(?=\s+[A-Z]))"
    r"\s*(\S.*)$",
    re.IGNORECASE,
)
# A sub-heading that only numbers a part ("Part 2", "Teil B", "Experiment II") continues the
# section it stands in.
NEUTRAL_HEADING = re.compile(
    r"^(?:part|teil|section|exp(?:eriment)?\.?|versuch|step|schritt|phase)\s*[\dIVXA-Ha-h]+\b"
    r"|^第\s*[一二三四五六七八九十\d]+\s*部分",
    re.IGNORECASE,
)
# A numbered task says so itself: "Task 3:", "Q2.", "Aufgabe 2:", "问题1".
# Lettered and roman tasks ("Task B:", "Question II.", "Aufgabe c)") need their punctuation,
# so that "Problem I had" or "Task Area" is no marker.
TASK_MARKER = re.compile(
    r"^\s*(?:(?:task|question|q|exercise|problem|step|aufgabe|teilaufgabe|frage|schritt"
    r"|exercice|étape|cuesti[óo]n|pregunta|ejercicio|paso|esercizio|domanda|passo|任务|问题|题)"
    r"\s*(?P<number>\d{1,3}[a-z]?)\s*[.:：)–—-]?"
    r"|(?:task|question|exercise|problem|step|aufgabe|teilaufgabe|frage|exercice|cuesti[óo]n"
    r"|pregunta|ejercicio|esercizio|domanda)"
    r"\s+(?P<letter>[A-Ha-h]|[IVX]{1,4})\s*[.:：)–—-])",
    re.IGNORECASE,
)
# A worksheet's blank to fill in ("g = ______ m/s²", "（  ）") asks for an answer.
BLANK = re.compile(r"_{4,}|＿{2,}|（\s{2,}）|\(\s{3,}\)")
# What the student does with the report, not with the data: not a task of the analysis.
CLOSING = re.compile(
    r"^(?:please\s+|(?:make|be)\s+sure\s+(?:to\s+|that\s+you\s+)|remember\s+to\s+)?"
    r"(?:hand\s+(?:it\s+)?in|submit|upload|send|e-?mail|turn\s+in|"
    r"the\s+(?:report|deadline)\s+is\s+due|reports?\s+(?:are|is)\s+due|deadline|due\b)"
    r"|^(?:提交|上交|交给|请于|请在.{0,12}提交)"
    r"|^(?:abgabe|reichen\s+sie|geben\s+sie\s+\S+(?:\s+\S+){0,6}\s+ab\b)",
    re.IGNORECASE,
)
IMPERATIVE = frozenset(
    {
        "measure", "determine", "calculate", "compute", "plot", "draw", "sketch", "graph",
        "compare", "derive", "estimate", "fit", "record", "discuss", "explain", "show", "find",
        "verify", "check", "report", "write", "describe", "state", "analyse", "analyze",
        "evaluate", "obtain", "use", "build", "set", "sweep", "save", "propagate", "quote",
        "include", "tabulate", "identify", "predict", "summarise", "summarize", "give", "list",
        "make", "prove", "assess", "investigate", "repeat", "convert", "construct", "apply",
        "upload", "submit", "cite", "label", "answer", "read", "take", "connect", "adjust",
        "observe", "test", "justify", "interpret", "calibrate", "perform", "present", "comment",
        "consider", "attach", "complete", "prepare", "note", "mark", "hand", "turn", "place",
        "arrange", "tilt", "push", "pull", "click", "drag", "select", "choose", "create", "add",
        "insert", "replace", "release", "displace", "start", "attempt", "try", "keep", "hold",
        "move", "rotate", "count", "weigh", "stir", "pour", "dilute", "titrate", "rinse",
        "collect", "dissolve", "examine", "reflect", "solve", "express", "relate", "extract",
        "deduce", "confirm", "demonstrate", "outline", "suggest", "propose", "design", "think",
        "ensure", "align", "mount", "wait", "allow", "fill", "enter", "print", "vary", "explore",
        "extrapolate", "interpolate", "linearise", "linearize", "integrate", "differentiate",
        "simulate", "sum", "average", "multiply", "divide", "subtract", "round", "open",
        "bring", "plug", "unplug", "remove", "discharge", "charge", "zero", "clamp", "hang", "copy",
        "combine", "quantify", "normalise", "normalize", "correct", "locate",
    }
)  # fmt: skip
# French handouts give commands in the infinitive ("Tracer I en fonction de cos²θ", "En
# déduire I0") or the imperative ("Calculez"); Spanish ones in the formal imperative
# ("Calcule", "Represente") or the infinitive ("Calcular").
ROMANCE_IMPERATIVE = frozenset(
    {
        "calculer", "calculez", "tracer", "tracez", "ajuster", "ajustez", "déterminer",
        "déterminez", "déduire", "déduisez", "donner", "donnez", "comparer", "comparez",
        "vérifier", "vérifiez", "mesurer", "mesurez", "relever", "relevez", "représenter",
        "représentez", "estimer", "estimez", "évaluer", "évaluez", "exprimer", "exprimez",
        "commenter", "commentez", "conclure", "concluez", "justifier", "justifiez", "refaire",
        "refaites", "interpréter", "interprétez", "montrer", "montrez", "indiquer", "indiquez",
        "calcule", "calcular", "represente", "representar", "ajuste", "ajustar", "determinar",
        "compare", "comparar", "obtenga", "obtener", "estime", "estimar", "repita", "repetir",
        "linealice", "linealizar", "grafique", "graficar", "dibuje", "dibujar", "discuta",
        "discutir", "explique", "explicar", "indique", "indicar", "razone", "justifique",
        # Italian: the infinitive of lab sheets ("Calcolare", "Stimare") or the imperative to
        # a class ("Calcolate", "Riportate") or to one student ("Calcola")
        "calcolare", "calcolate", "calcola", "determinare", "determinate", "determina",
        "tracciare", "tracciate", "traccia", "adattare", "adattate", "stimare", "stimate",
        "stima", "valutare", "valutate", "valuta", "riportare", "riportate", "riporta",
        "confrontare", "confrontate", "confronta", "verificare", "verificate", "verifica",
        "discutere", "discutete", "discuti", "ricavare", "ricavate", "ricava", "giustificare",
        "giustificate", "rappresentare", "rappresentate", "graficare", "eseguire", "eseguite",
        "misurare", "misurate", "ottenere", "ottenete", "interpolare", "interpolate",
        "commentare", "commentate", "dedurre", "dedurne", "esprimere", "esprimete",
        "derivare", "derivate", "scegliere", "scegliete", "ripetere", "ripetete", "spiegare",
        "spiegate", "descrivere", "descrivete",
        # Portuguese (its words shared with Spanish stand above): the infinitive or the formal
        # imperative ("Determine", "Trace", "Avalie")
        "determine", "trace", "traçar", "obtenha", "obter", "verifique", "verificar", "avalie",
        "avaliar", "construa", "construir", "faça", "fazer", "apresente", "apresentar",
        "linearize", "linearizar", "deduza", "deduzir", "expresse",
    }
)  # fmt: skip
# German instructions start with the verb ("Bestimmen Sie ...", to a student "Bestimme ...",
# to a group "Bestimmt ..."), or put it second after what they start with ("Aus a bestimmen
# Sie g"); old handouts write "Man bestimme ...".
GERMAN_IMPERATIVE = frozenset(
    {
        "bestimme", "bestimmen", "berechne", "berechnen", "miss", "messen", "messt", "zeichne",
        "zeichnen", "trage", "tragen", "passe", "passen", "vergleiche", "vergleichen",
        "diskutiere", "diskutieren", "ermittle", "ermitteln", "erkläre", "erklären",
        "skizziere", "skizzieren", "stelle", "stellen", "gib", "geben", "werte", "werten",
        "fitte", "fitten", "schätze", "schätzen", "überprüfe", "überprüfen", "prüfe",
        "prüfen", "untersuche", "untersuchen", "notiere", "notieren", "beschreibe",
        "beschreiben", "begründe", "begründen", "leite", "leiten", "nenne", "nennen",
        "bestätige", "bestätigen", "verifiziere", "verifizieren", "bilde", "bilden",
        "führe", "führen", "plotte", "plotten", "bestimmt", "berechnet", "vergleicht",
        "zeige", "zeigen", "nimm", "nehmen", "lies", "lesen", "wiederhole", "wiederholen",
        "variiere", "variieren", "beantworte", "beantworten", "erstelle", "erstellen",
        "verwende", "verwenden", "benutze", "benutzen", "wähle", "wählen", "beurteile",
        "beurteilen", "überlege", "überlegen", "justiere", "justieren", "kalibriere",
        "kalibrieren", "schalte", "schalten", "zeichnet", "skizziert", "erklärt", "ermittelt",
        "diskutiert", "stellt", "tragt", "gebt", "nennt", "begründet", "rechne",
        "rechnen", "überprüft", "untersucht", "fertige", "fertigen", "drucke", "drucken",
    }
)  # fmt: skip
# Northern and Eastern Europe's handouts: Swedish, Norwegian and Danish ("Bestäm",
# "Beregn"), Dutch ("Bepaal"), Polish ("Wyznaczyć", "Oblicz"), Czech and Slovak ("Určete"),
# Russian ("Определите"); the infinitive and the imperative alike. Words that are also
# nouns of a heading are left out (Swedish "mål" is a goal, "lag" a law).
OTHER_IMPERATIVE = frozenset(
    {
        "bestäm", "beräkna", "mät", "rita", "jämför", "anpassa", "uppskatta", "redovisa",
        "undersök", "ange", "visa", "förklara", "diskutera", "gör", "plotta", "räkna",
        "bestem", "beregn", "tegn", "sammenlign", "finn", "angi", "angiv", "forklar",
        "diskuter", "plott", "estimer", "undersøk", "undersøg", "regn",
        "bepaal", "bereken", "meet", "teken", "vergelijk", "maak", "schat", "controleer",
        "verklaar", "geef", "bespreek", "leid",
        "wyznaczyć", "wyznacz", "wyznaczyc", "obliczyć", "oblicz", "obliczyc", "zmierzyć",
        "zmierz", "narysować", "narysuj", "porównać", "porównaj", "sporządzić", "sporządź",
        "wykreślić", "wykreśl", "dopasować", "dopasuj", "określić", "określ", "oszacować",
        "oszacuj", "przedstawić", "przedstaw", "podać", "podaj", "zbadać", "zbadaj",
        "sprawdzić", "sprawdź", "wyjaśnić", "wyjaśnij", "omówić", "omów", "policzyć",
        "určete", "určit", "vypočtěte", "vypočítejte", "změřte", "vyneste", "sestrojte",
        "porovnejte", "proložte", "stanovte", "zjistěte", "ověřte", "vyhodnoťte", "spočítejte",
        "nakreslete", "určte", "vypočítajte", "zmerajte", "porovnajte",
        "определите", "вычислите", "рассчитайте", "постройте", "измерьте", "сравните",
        "найдите", "оцените", "определить", "вычислить", "рассчитать", "построить",
        "измерить", "сравнить", "найти", "оценить",
    }
)  # fmt: skip
CHINESE_IMPERATIVE = (
    "计算", "绘制", "画出", "作出", "作图", "画图", "比较", "测量", "测定", "确定", "求出",
    "求", "分析", "讨论", "说明", "验证", "记录", "推导", "估算", "估计", "拟合", "给出", "写出",
    "解释", "总结", "列出", "观察", "研究", "描绘", "算出", "判断", "完成", "读出", "调节",
    "调整", "改变", "重复", "填写", "填入", "回答", "简述", "指出", "证明", "设计", "估测",
    "描点", "绘出", "导出", "处理",
)  # fmt: skip
# "用/利用/根据/由 ... 求出 g": a command whose verb follows what it works from.
CHINESE_FROM = re.compile(
    r"^(?:请|试)?(?:由|从|根据|利用|用|通过|依据)[^，。；,;]{0,24}?"
    r"(?:求出|求得|计算|算出|确定|得出|作出|画出|绘制|比较|验证|求)"
)
# Sequence words before a command: "Next measure ...", "Then plot ...", "Also calculate".
LEADING_ADVERB = frozenset(
    {"next", "then", "also", "finally", "now", "first", "second", "third", "lastly", "again",
     "afterwards", "additionally", "similarly", "carefully", "briefly", "please", "just",
     "anschließend", "danach", "zuletzt", "dann", "nun", "zunächst", "außerdem",
     "en", "puis", "ensuite", "enfin", "luego", "después", "finalmente", "poi", "quindi",
     "infine", "depois", "então", "em", "seguida"}
)  # fmt: skip
# After a comma a command is lower-case ("From a, determine g"), and an object follows it:
# "..., set to 5 V" is a participle, "..., set the generator to 5 V" a command.
_OBJECT_START = re.compile(
    r"(?:the|a|an|your|this|that|these|those|all|each|every|both|it|them|its|their|one|two|"
    r"three|and|or|then|how|what|whether|why|which|at|for|on|up|in|out|off|down)\b"
    r"|[A-Za-z](?:_\w+)?\b|\d|[$\"“'(]",
    re.IGNORECASE,
)
_YOU_MUST = re.compile(
    r"\byou\s+(?:should|must|need\s+to|have\s+to|are\s+(?:asked\s+|required\s+)?to)\s+"
    r"([a-z]+)",
    re.IGNORECASE,
)
_GERMAN_SIE = re.compile(r"\b([a-zäöüß]+)\s+Sie\b", re.IGNORECASE)
_GERMAN_MAN = re.compile(r"^man\s+([a-zäöüß]+)\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[,;:，；：]\s*")
# A course's code for the item before its verb: "M7.1 Wyznaczyć …", "A2) Determine …"
_ITEM_CODE = re.compile(
    r"^(?:[A-Z]{1,3}\d{1,3}(?:\.\d{1,3})*|\d{1,3}(?:\.\d{1,3})+)[.):]?\s+(?=\S)"
)
_WORD = re.compile(r"[^\W\d_]+")  # letters of any alphabet: "Wyznaczyć", "Určete", "Найдите"
_CJK = re.compile(r"[\u3400-\u9fff]")
_NOTE_THAT = re.compile(r"^note\s+that\b", re.IGNORECASE)
# French "pour" ("Pour n mesures ...", "Pour chaque diamètre ...") is "for", not the verb.
_FRENCH_POUR = re.compile(
    r"^pour\s+(?:n|chaque|les?|la|l['’]|une?|des|ce|cette|cela|tout|toutes|tous|obtenir"
    r"|calculer|d[ée]terminer|mesurer)\b",
    re.IGNORECASE,
)
# A Chinese sentence that opens with who did it narrates ("某同学在……实验中，测量……"):
# its verbs are the narrative's, not commands to the reader.
_CHINESE_NARRATIVE = re.compile(r"^(?:某|我们|我|他们|他|她|学生|同学|小组|有人|实验者)")


# A sentence that only hands over a value ("Use g = 9.81 m/s².", "Take ρ_W = 998 kg/m³",
# "On prendra g = 9,81 m/s²", "Verwenden Sie g = 9,81 m/s²") sets no task.
GIVES_A_VALUE = re.compile(
    r"^(?:use|take|assume|on prendra|prendre|prenez|utiliser|verwenden sie|nehmen sie|"
    r"usare|usa|usar|utilice|tomar|tome)\s+[^.;?]{0,40}?=\s*[-−]?\d[\d.,]*"
    r"(?:\s*[·×x]\s*10\^?[-−⁻]?[\d⁰¹²³⁴-⁹]+)?"  # 6.626 × 10⁻³⁴
    # its unit, a few short tokens that are no words of a clause ("J/(mol K)", "m/s²")
    r"(?:\s+(?!(?:to|for|and|in|with|um|zur?|pour|per|para|et|und|y|e)\b)[^\s;?]{1,8}){0,3}"
    r"\s*\.?$",
    re.IGNORECASE,
)


def asks(sentence: str) -> bool:
    """Whether `sentence` gives a command: a clause starts with one ("From a, determine g."),
    or the sentence says what the student must do ("you should plot", "bestimmen Sie").
    A lone word ("Report") is a heading, not a command."""
    if _CHINESE_NARRATIVE.match(sentence.strip()) or GIVES_A_VALUE.match(sentence.strip()):
        return False
    clauses = [c for c in _CLAUSE.split(sentence) if c.strip()]
    for position, clause in enumerate(clauses):
        if imperative(clause, first=position == 0) and (
            len(clause.split()) > 1 or _CJK.match(clause.strip())
        ):
            return True
    if (must := _YOU_MUST.search(sentence)) and must.group(1).lower() in IMPERATIVE:
        return True
    return any(m.group(1).lower() in GERMAN_IMPERATIVE for m in _GERMAN_SIE.finditer(sentence))


def imperative(clause: str, *, first: bool = True) -> bool:
    """Whether `clause` starts with a command: its first word (after a sequence word such as
    "Next") is a verb of the vocabulary. A clause after a comma may start lower-case when an
    object follows its verb."""
    text = _ITEM_CODE.sub("", clause.lstrip("-–•*·(（ "), count=1)
    if _CJK.match(text):
        return text.removeprefix("请").removeprefix("试").startswith(CHINESE_IMPERATIVE) or (
            CHINESE_FROM.match(text) is not None
        )
    if _NOTE_THAT.match(text) or _FRENCH_POUR.match(text):
        return False
    if (man := _GERMAN_MAN.match(text)) and man.group(1).lower() in GERMAN_IMPERATIVE:
        return True
    words = _WORD.match(text)
    if words is None or text[words.end() : words.end() + 1] == "-":
        return False  # "Ange- nommen": a word a PDF hyphenated, not the verb "ange"
    word, rest = words.group(0), text[words.end() :].lstrip()
    capital = text[:1].isupper()
    if word.lower() in LEADING_ADVERB and (following := _WORD.match(rest)):
        word, rest = following.group(0), rest[following.end() :].lstrip()
        capital = True  # "Next measure ...": the sentence's capital is the adverb's
    lowered = word.lower()
    vocabulary = (IMPERATIVE, GERMAN_IMPERATIVE, ROMANCE_IMPERATIVE, OTHER_IMPERATIVE)
    if not any(lowered in words for words in vocabulary):
        return False
    if capital and first:
        return True
    return _OBJECT_START.match(rest) is not None


def closing(text: str) -> bool:
    """A closing instruction: handing in, not analysing."""
    return CLOSING.search(text.lstrip("-–•*·(（ ")) is not None


def is_cjk(text: str) -> bool:
    return _CJK.search(text) is not None
