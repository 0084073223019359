"""The analysis report's words in the report's language (``--lang``): the page, the terminal text, the measures.

``tr(lang)`` gives a function that takes an English text (a heading, a note, a column, a format string) and
returns it in ``lang``; English, or a text not in the catalog, comes back as given.  The verdict for the
table has its own catalog (``khrap.sim.table_words``); calls and variants go by their display names.
"""

from __future__ import annotations

from collections.abc import Callable

from khrap.sim.figures import Figures, template_class

RU: dict[str, str] = {
    # the page
    "Balance report: {names}": "Отчёт о равновесии: {names}",
    " vs ": " против ",
    "Verdict.": "Вывод.",
    "Verdict: {text}": "Вывод: {text}",
    "variant": "вариант", "source": "источник", "deals": "раздачи", "deals/s": "раздач/с",
    "What “{variant}” changes against “{parent}”, deal by deal":
        "Что меняет «{variant}» по сравнению с «{parent}», раздача за раздачей",
    "PAIRED_NOTE": (
        "Каждая раздача с одним номером сыграна с теми же {what} и теми же костями ботов по обоим правилам, "
        "поэтому каждая разница измерена раздача за раздачей; её 95-процентный интервал взят из разброса этих "
        "разниц. Непарный интервал — то, что дали бы те же раздачи, сравнённые как независимые (что даёт "
        "парность). Разница, чей интервал содержит 0, при таком числе раздач не измерима; число раздач, "
        "которое её покажет, считает, что разница останется такой, как наблюдалась (80% шанс её показать)."),
    "cards": "картами", "shuffle seed": "зерном тасовки",
    "measure": "мера", "what it means": "что это значит", "change [95% interval]": "изменение [95% интервал]",
    "unpaired interval": "непарный интервал", "says": "вывод",
    "An evening at the table": "Вечер за столом",
    "EVENING_NOTE": (
        "Каждый вечер — свежий стол: каждый игрок приносит свой запас, банк переходит из раздачи в раздачу, "
        "раздача идёт по кругу. Результат игрока — фишки, которые он уносит, минус его запас; он разорился, "
        "если его запас после какой-то раздачи стал нулём или меньше. Средняя половина: четверть игроков "
        "сыграла хуже, четверть лучше."),
    "player": "игрок", "mean": "среднее", "middle half": "средняя половина", "9 in 10 between": "9 из 10 между",
    "worst / best": "худший / лучший", "went broke [95%]": "разорился [95%]",
    "{variant}: an evening of {deals} deals with {stack} chips each ({evenings} evenings), results in chips":
        "{variant}: вечер из {deals} раздач по {stack} фишек у каждого ({evenings} вечеров), результаты в фишках",
    "{a:+d} to {b:+d}": "от {a:+d} до {b:+d}",
    "any player": "любой игрок",
    "seat {seat} ({position} of the first deal)": "место {seat} ({position} в первой раздаче)",
    "Which hands are worth a call": "Какие руки стоят заявки",
    "HANDS_NOTE": (
        "Каждый игрок, державший заявку (объявивший или помогающий), чьи взятки были сыграны, по его руке при "
        "сдаче против козыря раздачи: как часто заявка выполнялась и сколько фишек она выиграла в среднем "
        "(базовые ставки, анте включено, 95-процентный интервал). Строки, встреченные реже {min_count} раз, "
        "опущены."),
    "HANDS_MISSING": (
        "Какие руки стоят заявки: не измерено, так как случайные боты играют на голой машине ядра, которая не "
        "ведёт журнала рук; задайте --bots normal или --engine reference."),
    "call": "заявка", "times": "раз", "made": "выполнено", "mean result (stakes)": "средний результат (ставки)",
    "trumps in hand": "козырей на руке", "holds the trump ace": "туз козырей на руке",
    "aces and kings in hand": "тузов и королей на руке", "yes": "да", "no": "нет",
    "How often each contract was makeable": "Как часто каждое обязательство было выполнимо",
    "How the measures are computed": "Как считаются меры",
    " (solving {deals} deals)": " (решается раздач: {deals})", "evenings of {deals} deals": "вечера по {deals} раздач",
    "the report": "отчёт",
    "% of players": "% игроков", "% of deals": "% раздач",
    "Compared at {count} players, the count every variant allows ({ranges}).":
        "Сравнение за столом из {count} игроков: это число допускает каждый вариант ({ranges}).",
    "random bots: normal ones would need about {minutes:.0f} minutes for {deals} deals (give --bots normal to "
    "wait for them)":
        "случайные боты: обычным понадобилось бы около {minutes:.0f} мин. на {deals} раздач (задайте "
        "--bots normal, чтобы их дождаться)",
    # how often each contract was makeable (khrap.sim.makeable)
    "How often each contract was makeable (exact solver at the first card, every hand open):":
        "Как часто каждое обязательство было выполнимо (точный решатель перед первой картой, все руки открыты):",
    "contracts": "обязательства", "made [95%]": "выполнено [95%]", "makeable [95%]": "выполнимо [95%]",
    "made of the makeable [95%]": "выполнено из выполнимых [95%]",
    "failed though makeable": "провалено, хотя выполнимо",
    "made though the others could stop it": "выполнено, хотя другие могли помешать",
    "makeable": "выполнимо", "made/makeable": "из выполнимых", "failed:M": "провал:В", "made:¬M": "выполн.:¬В",
    "all calls": "все заявки",
    "(failed:M = failed though makeable; made:¬M = made though the others could have stopped it.)":
        "(провал:В = провалено, хотя выполнимо; выполн.:¬В = выполнено, хотя другие могли помешать.)",
    "{variant}: of the {deals} deals judged, {played} reached the card play and {solved} were solved "
    "({contracts} contracts)":
        "{variant}: из {deals} проверенных раздач до розыгрыша дошли {played}, решены {solved} "
        "(обязательств: {contracts})",
    "; {makeable} of the contracts were makeable with every card open, {made} were made: the bots made {both} "
    "of the makeable ones":
        "; при открытых картах выполнимы были {makeable} обязательств, выполнены {made}: боты выполнили {both} "
        "выполнимых",
    "; none was makeable with every card open": "; при открытых картах ни одно не было выполнимо",
    "; {deals} deal(s) ({contracts} contracts) not solved within {seconds:g} s, left out":
        "; раздач, не решённых за {seconds:g} с и опущенных: {deals} (обязательств: {contracts})",
    "MAKEABLE_NOTE": (
        "Выполнимо: когда все руки открыты перед первой картой, игрок мог взять нужные его заявке взятки, что бы "
        "ни делали остальные играющие (его партнёры тоже). Выполнено из выполнимых: доля тех, что боты "
        "выполнили. Выполнено, хотя другие могли помешать: защита его пропустила (это не ошибка). Интервалы "
        "Уилсона, 95%."),
    # one variant alone (nothing to compare it with)
    "“{name}” with {bots} bots at {players} players, {deals} deals:":
        "«{name}», боты: {bots}, {players} игрока(ов), раздач: {deals}:",
    " (95% sure between {lo:+.2f} and {hi:+.2f})": " (с уверенностью 95% от {lo:+.2f} до {hi:+.2f})",
    "the first speaker wins {first:+.2f} base stakes a deal{sure}, the dealer {dealer:+.2f}.":
        "первый говорящий выигрывает {first:+.2f} базовых ставок за раздачу{sure}, сдающий {dealer:+.2f}.",
    "The call most often stood by is “{call}”: made {made:.0f}% of {times} times, for {mean:+.2f} base stakes "
    "on average.":
        "Чаще всего держат заявку «{call}»: выполнена в {made:.0f}% из {times} раз, в среднем "
        "{mean:+.2f} базовых ставок.",
    "Everybody passes in {rate:.1f}% of deals.": "Все пасуют в {rate:.1f}% раздач.",
    # the sections
    "Game-design measures": "Меры устройства игры",
    "MEASURES_NOTE": (
        "Справедливость: разрыв между лучшим и худшим местом по средним фишкам за раздачу (0 — справедливо). "
        "Драма: доля раздач, после которых лидер по фишкам сменился. Решённость: доля сыгранных раздач, в "
        "которых судьба каждого игрока была ясна до последней взятки. Размах: сколько базовых ставок средний "
        "игрок выигрывает или проигрывает за раздачу, в любую сторону."),
    "fairness": "справедливость", "first speaker's edge": "преимущество первого говорящего", "drama": "драма",
    "decisiveness": "решённость", "decided after trick (mean)": "решено после взятки (в среднем)",
    "swing": "размах", "all-pass deals": "раздачи со всеобщим пасом", "turn-up deals": "раздачи с открытием козыря",
    "redeal deals": "раздачи с пересдачей",
    "Calls made": "Сказанные заявки",
    "Every call said, in every bidding round (all-pass rounds included), per deal.":
        "Каждая сказанная заявка, в каждом круге торговли (круги всеобщего паса включены), за раздачу.",
    "Call success rates": "Как часто заявки выполняются",
    "SUCCESS_NOTE": (
        "Обязательство, которое игрок держал к концу раздачи (перебитый объявивший и вынужденный помогающий "
        "считаются отдельно), и как часто он брал свои взятки."),
    "{pct} of {count}": "{pct} из {count}",
    "contract": "обязательство",
    "Results per call": "Результат по заявкам",
    "RESULTS_NOTE": (
        "Фишки, которые держатель каждого обязательства выиграл в раздаче (анте включено), в базовых ставках, "
        "среднее и 95-процентный доверительный интервал."),
    "Seat fairness": "Справедливость мест",
    "Mean chips per deal by position at the table: the first speaker sits at the dealer's left.":
        "Средние фишки за раздачу по месту за столом: первый говорящий сидит слева от сдающего.",
    "position": "место",
    "Pot distribution": "Распределение банка",
    "POT_NOTE": (
        "P — банк в начале расчёта, в базовых ставках (раздачи, дошедшие до расчёта), и банк, оставшийся после "
        "раздачи."),
    "P: {k}": "P: {k}", "after: {k}": "после: {k}",
    "median": "медиана", "p10": "p10", "p90": "p90", "max": "макс.",
    "Swing per deal": "Размах раздачи",
    "For each deal, the mean absolute chip change of a player, in base stakes.":
        "Для каждой раздачи — средний модуль изменения фишек игрока, в базовых ставках.",
    "Deal length and endings": "Длина раздачи и её концы",
    "Decisions per deal.": "Решения за раздачу.",
    "bidding rounds (mean)": "круги торговли (в среднем)", "ended by {e}": "закончилась: {e}",
    "play": "розыгрыш", "lone": "один против всех", "session_over": "конец сессии",
    # the plots
    "times said per deal (all bidding rounds)": "сказано раз за раздачу (все круги торговли)",
    "contracts fulfilled, %": "обязательства выполнены, %",
    "mean chips won in the deal by the holder, base stakes (95% CI)":
        "средний выигрыш держателя в раздаче, базовые ставки (95% ДИ)",
    "mean chips per deal, base stakes (95% CI)": "средние фишки за раздачу, базовые ставки (95% ДИ)",
    "pot at settlement (P), base stakes": "банк при расчёте (P), базовые ставки",
    "swing of a deal: mean |chip change| of a player, base stakes":
        "размах раздачи: средний |изменение фишек| игрока, базовые ставки",
    "fairness\n(spread; 0 is fair)": "справедливость\n(разброс; 0 — справедливо)",
    "drama\n(leader changes a deal)": "драма\n(смены лидера за раздачу)",
    "decisiveness\n(decided early)": "решённость\n(решено рано)",
    "swing\n(base stakes)": "размах\n(базовые ставки)",
    "change, base stakes a deal (95% interval)": "изменение, базовых ставок за раздачу (95% интервал)",
    "change, percentage points (95% interval)": "изменение, процентные пункты (95% интервал)",
    "a player's result over {deals} deals, chips (stack {stack})":
        "результат игрока за {deals} раздач, фишки (запас {stack})",
    # positions
    "dealer": "сдающий", "first speaker": "первый говорящий", "speaker {n}": "говорящий {n}",
    "the dealer": "сдающий",
    # the measures (name, definition)
    "the first speaker's edge": "преимущество первого говорящего",
    "how many base stakes a deal the player at the dealer's left (the first to speak) wins more than the average "
    "player at the table; 0 is fair":
        "на сколько базовых ставок за раздачу игрок слева от сдающего (он говорит первым) выигрывает больше "
        "среднего игрока за столом; 0 — справедливо",
    "stakes at risk per deal": "ставки на кону за раздачу",
    "how many base stakes an average player wins or loses in one deal, either way":
        "сколько базовых ставок средний игрок выигрывает или проигрывает за раздачу, в любую сторону",
    "the declarer makes it": "объявивший выполняет",
    "of the deals with a declarer whose tricks were played, the share where the declarer took the tricks called "
    "for":
        "из раздач с объявившим, чьи взятки сыграны, доля тех, где он взял заявленные взятки",
    "deals where everybody passes": "раздачи, где все пасуют",
    "the share of deals with at least one bidding round in which every player passed":
        "доля раздач хотя бы с одним кругом торговли, в котором все спасовали",
    "deals dealt again": "пересданные раздачи",
    "the share of deals redealt after the last all-pass round":
        "доля раздач, пересданных после последнего круга всеобщего паса",
    "pot carried over": "банк, перешедший дальше",
    "the base stakes left in the pot after a deal, for the next one":
        "базовые ставки, оставшиеся в банке после раздачи, на следующую",
    "deals decided early": "раздачи, решённые рано",
    "of the deals played out, the share in which every player's fate (made or failed) was certain before the "
    "last trick":
        "из сыгранных раздач доля тех, где судьба каждого игрока (выполнил или нет) была ясна до последней взятки",
    "lead changes": "смены лидера",
    "the share of deals after which a different player leads the evening in chips":
        "доля раздач, после которых вечер по фишкам ведёт другой игрок",
    "decisions per deal": "решения за раздачу",
    "how many calls, exchanges and cards the players chose in a deal":
        "сколько заявок, обменов и карт игроки выбрали за раздачу",
    "{name}'s result": "результат: {name}",
    "the first speaker's result": "результат первого говорящего",
    "the base stakes the player {where} wins (+) or loses (-) in a deal, ante included":
        "базовые ставки, которые игрок {where} выигрывает (+) или проигрывает (-) за раздачу, анте включено",
    "who deals": "который сдаёт", "at the dealer's left (who speaks first)": "слева от сдающего (говорит первым)",
    "{k} seats to the dealer's left": "через {k} мест слева от сдающего",
    "“{label}” per deal": "«{label}» за раздачу",
    "how many players end a deal standing by “{label}” (declarer or helper), per deal":
        "сколько игроков заканчивают раздачу, держа «{label}» (объявивший или помогающий), за раздачу",
    # what a difference says
    "a real change (its interval leaves out 0)": "настоящее изменение (интервал не содержит 0)",
    "no measurable difference at {deals} deals; about {needed:,} deals would tell":
        "за {deals} раздач разница не измерима; её покажут около {needed:,} раздач",
    "the same on every deal": "одинаково в каждой раздаче",
    " points": " п.п.", " base stakes": " базовых ставок",
    "Its base stakes are “{rule}”'s ({chips} chips), under both rules.":
        "Базовые ставки здесь — ставки правил «{rule}» (фишек в ставке: {chips}) для обоих правил.",
    # the statistician's verdict
    "{name} goes from {a} to {b}{tail} ({diff}; 95% sure between {lo} and {hi})":
        "{name}: было {a}, стало {b}{tail} ({diff}; с уверенностью 95% от {lo} до {hi})",
    "Measured on {deals} deals played by {bots} bots at {players} players, each deal with the same {what} and "
    "the same bot dice under both rules.":
        "Измерено на {deals} раздачах за столом из {players} игроков (боты: {bots}), каждая раздача "
        "с теми же {what} и теми же костями ботов по обоим правилам.",
    "“{rule}” played exactly as “{parent}” on every one of the {deals} deals: with these bots the rule never "
    "changed a deal. {setup}":
        "«{rule}» сыграли точно как «{parent}» во всех {deals} раздачах: с этими ботами правило ни разу не "
        "изменило раздачу. {setup}",
    "No measurable difference between “{rule}” and “{parent}” at {deals} deals in any measure. The closest to "
    "showing one is {name} ({diff}): about {needed:,} deals would tell whether it is real. {setup}":
        "За {deals} раздач между «{rule}» и «{parent}» нет измеримой разницы ни в одной мере. Ближе всех к ней "
        "{name} ({diff}): около {needed:,} раздач покажут, настоящая ли она. {setup}",
    "The largest change “{rule}” makes to “{parent}”: {what}.": "Главное, что «{rule}» меняет в «{parent}»: {what}.",
    " Also, ": " Также: ",
    " {more} more measure(s) changed (see the table).": " Изменились ещё мер: {more} (см. таблицу).",
    "“{rule}” changes the calls players stand by, but no measure of the game measurably, against “{parent}”.":
        "«{rule}» меняет заявки, которые держат игроки, но ни одну меру игры измеримо по сравнению с «{parent}».",
    " Calls stood by per deal: ": " Заявки, которые держат за раздачу: ",
    " No measurable difference at {deals} deals in {names}{others} (about {needed:,} deals would tell for the "
    "first).":
        " За {deals} раздач нет измеримой разницы в мерах: {names}{others} (для первой это покажут около "
        "{needed:,} раздач).",
    " and others": " и других",
    # the terminal
    "What changes, “{variant}” minus “{parent}” (95% intervals, deal by deal):":
        "Что меняется, «{variant}» минус «{parent}» (95-процентные интервалы, раздача за раздачей):",
    "An evening of {deals} deals with {stack} chips each, {variant} ({evenings} evenings simulated): a "
    "player's result in chips":
        "Вечер из {deals} раздач по {stack} фишек у каждого, {variant} ({evenings} вечеров): результат игрока "
        "в фишках",
    "mean {mean:+.1f}, middle half {a:+d} to {b:+d}, 9 in 10 between {c:+d} and {d:+d}; broke {broke:.1f}% "
    "[{lo:.1f}, {hi:.1f}]":
        "среднее {mean:+.1f}, средняя половина от {a:+d} до {b:+d}, 9 из 10 от {c:+d} до {d:+d}; разорились "
        "{broke:.1f}% [{lo:.1f}; {hi:.1f}]",
    "Which hands are worth a call ({variant}): made and mean result by the caller's hand":
        "Какие руки стоят заявки ({variant}): выполнено и средний результат по руке заявившего",
    # the headline
    "{deals} paired deals per variant (the same cards and bot dice for each deal number)":
        "{deals} парных раздач на вариант (те же карты и кости ботов для каждого номера раздачи)",
    "{deals} deals": "{deals} раздач",
    "{deals}, {players} players, {bots} bots, seed {seed}, sessions of {chunk} deals (100 chips a seat), "
    "{workers} worker(s).":
        "{deals}, {players} игрока(ов), боты: {bots}, зерно {seed}, сессии по {chunk} раздач (100 фишек на "
        "место), процессов: {workers}.",
    "MEASURES_DOC": """\
Фишки даны в базовых ставках; результат раздачи для места — изменение его фишек
за раздачу, анте включено.  Интервалы — 95-процентные доверительные интервалы
среднего (нормальное приближение).  Меры устройства игры (в духе эвристик Брауна
и CardStock):

- справедливость: разброс (макс. - мин.) средних фишек за раздачу по местам за
  столом, место 1 — первый говорящий (слева от сдающего), место N — сдающий;
  0 — полностью справедливо.
- драма: доля раздач, после которых сменился лидер сессии по фишкам.
- решённость: доля сыгранных раздач, в которых исход каждого играющего
  (выполнил или нет) был ясен до последней взятки.
- размах: средний модуль изменения фишек игрока за раздачу.
""",
    # `khrap simulate --lang ru`: its printed statistics (khrap.sim.text.account)
    "{variant}: {players} players, {bots} bots, seed {seed}":
        "{variant}: игроков {players}, боты: {bots}, зерно {seed}",
    "{deals} deals in {seconds:.2f} s on {workers} worker(s): {rate:.0f} deals/s (CPU {cpu:.2f} s)":
        "{deals} раздач за {seconds:.2f} с, процессов: {workers}; {rate:.0f} раздач/с (процессор {cpu:.2f} с)",
    "Calls made (all bidding rounds)": "Сказанные заявки (все круги торговли)",
    "said": "сказана", "per deal": "за раздачу",
    "Contracts at the end of the deal; result = chips won in the deal (ante included), in base stakes":
        "Обязательства к концу раздачи; результат — фишки, выигранные в раздаче (анте включено), в базовых ставках",
    "held": "держали", "fulfilled": "выполнено", "success": "успех", "95% CI": "95% ДИ",
    "Chips per deal by position (base stakes; the first speaker sits at the dealer's left)":
        "Фишки за раздачу по месту за столом (базовые ставки; первый говорящий сидит слева от сдающего)",
    "By seat (the deal passes round the table)": "По местам (сдача идёт по кругу)",
    "seat {n}": "место {n}",
    "Pot at settlement (P, base stakes): {dist}": "Банк при расчёте (P, базовые ставки): {dist}",
    "Pot after the deal (base stakes):   {dist}": "Банк после раздачи (базовые ставки):  {dist}",
    "All-pass deals {all_pass} ({per_deal} all-passes a deal); turn-ups after an all-pass {turn_up}; "
    "redeals {redeal}":
        "Раздачи со всеобщим пасом {all_pass} ({per_deal} всеобщих пасов за раздачу); открытие козыря после "
        "всеобщего паса {turn_up}; пересдачи {redeal}",
    "Deals ended by: {endings}": "Чем кончились раздачи: {endings}",
    "Deal length, actions: {dist}; bidding rounds: mean {rounds}":
        "Длина раздачи в решениях: {dist}; круги торговли: в среднем {rounds}",
    "Fairness (spread of chips per deal across positions) {fairness}; first speaker's edge {edge}":
        "Справедливость (разброс фишек за раздачу по местам) {fairness}; преимущество первого говорящего {edge}",
    "Drama (leader changes a deal) {drama}; decisiveness (outcomes certain before the last trick) "
    "{decisiveness}, on average after trick {after}":
        "Драма (смены лидера за раздачу) {drama}; решённость (исходы ясны до последней взятки) {decisiveness}, "
        "в среднем после взятки {after}",
    "Swing (mean |chip change| a player a deal) {swing}":
        "Размах (средний модуль изменения фишек игрока за раздачу) {swing}",
    "note: {why}": "примечание: {why}",
    "kernel: {kernel}": "ядро: {kernel}", "plain Python": "без компиляции", "compiled (mypyc)":
        "скомпилированное (mypyc)", "partly compiled (mypyc)": "частично скомпилированное (mypyc)",
    # the bots, by strength
    "easy": "лёгкие", "normal": "обычные", "strong": "сильные", "random": "случайные",
}

CATALOGS: dict[str, dict[str, str]] = {"en": {}, "ru": RU}


class Say:
    """The translation function of ``lang``: an English text in ``lang`` (English, or a text not in the
    catalog, comes back as given), whose ``format`` writes the figures as ``lang`` does; ``figure`` and
    ``interval`` write a figure alone (:mod:`khrap.sim.figures`)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.catalog = CATALOGS.get(lang, {})
        self.template = template_class(lang)
        self.figure = self.template.figures
        self.interval = self.figure.interval

    def __call__(self, text: str) -> str:
        return self.template(self.catalog.get(text, text))


def tr(lang: str) -> Say:
    """The translation function of ``lang`` (English texts come back as given)."""
    return Say(lang)


def figures(t: Callable[[str], str]) -> Figures:
    """The figure formatter of a translation function (English for a plain function)."""
    return t.figure if isinstance(t, Say) else Figures()


def position_label(name: str, t: Callable[[str], str]) -> str:
    """A position's name (``first speaker``, ``speaker 3``, ``dealer``) in the report's language."""
    if name.startswith("speaker ") and name[8:].isdigit():
        return t("speaker {n}").format(n=name[8:])
    return t(name)


def english(key: str) -> str:
    """The English of the texts a catalog keys by a name (``PAIRED_NOTE``, ...): kept where they are used."""
    return ENGLISH.get(key, key)


ENGLISH: dict[str, str] = {
    "PAIRED_NOTE": (
        "Each deal number was played with the same {what} and the same bot dice under both rules, so each "
        "difference is measured deal by deal; its 95% interval comes from the spread of those per-deal "
        "differences. The unpaired interval is what the same deals would give compared as if they were "
        "independent (what pairing saves). A difference whose interval holds 0 is not measurable at this many "
        "deals; the deals that would tell assume the difference stays at its observed size (an 80% chance to "
        "show it)."),
    "EVENING_NOTE": (
        "Each evening is a fresh table: every player brings the stack, the pot carries over from deal to deal, "
        "the deal passes round. A player's result is the chips they take home minus their stack; they went "
        "broke when their stack reached zero or less after some deal. Middle half: a quarter of players did "
        "worse, a quarter better."),
    "HANDS_NOTE": (
        "Every player who stood by a call (declarer or helper) and whose tricks were played, by their hand as dealt "
        "against the deal's trump: how often the call was made, and the chips it won on average (base stakes, "
        "ante included, 95% interval). Rows held fewer than {min_count} times are left out."),
    "MEASURES_NOTE": (
        "Fairness: the gap between the best and the worst seat's mean chips per deal (0 is fair). Drama: the "
        "share of deals after which a different player leads in chips. Decisiveness: the share of played deals "
        "in which every player's fate was certain before the last trick. Swing: how many base stakes an average "
        "player wins or loses in a deal, either way."),
    "SUCCESS_NOTE": (
        "The contract a seat stood by when the deal ended (an overridden declarer and a forced helper are "
        "counted apart), and how often it took its tricks."),
    "RESULTS_NOTE": (
        "Chips the holder of each contract won in the deal (ante included), in base stakes, mean and 95% "
        "confidence interval."),
    "POT_NOTE": (
        "P, the pot when settlement begins, in base stakes (deals that reached settlement), and the pot left "
        "after the deal."),
}


def note(lang: str, key: str) -> str:
    """A long note by its name, in ``lang``."""
    return CATALOGS.get(lang, {}).get(key) or ENGLISH[key]


__all__ = ["CATALOGS", "ENGLISH", "RU", "Say", "english", "figures", "note", "position_label", "tr"]
