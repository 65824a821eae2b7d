"""Lesson A's printables in German, Chinese (Traditional, Taiwan) and Belarusian (taraškievica).

Issue 35: in each language a teacher prints lesson 00's and 02's worksheets, the rules sheet,
the player aid and the teacher guide's 50-minute plan, from ``notebooks/<lang>/`` into
``docs/worksheets/<lang>/``. The words the notebooks do not say themselves live here: the
worksheet's frame (:data:`WORKSHEET`, the same keys as ``ENGLISH_WORKSHEET`` in
``docs/build_worksheets.py``) and the player aid (:data:`AID`, the keys of
``printables.aid.ENGLISH``). Terms follow the sources (``notebooks/RULES.md``, its table of the
game's words in four languages). The translations await review by a native speaker and teacher.
"""

from __future__ import annotations

LANGUAGES = ("de", "zh-Hant", "be")

NAMES = {"de": "Deutsch", "zh-Hant": "繁體中文", "be": "Беларуская"}

WORKSHEET = {
    "de": {
        "worksheet": "Arbeitsblatt",
        "name_line": "Name: ______________________ &nbsp; Gruppe: ______ &nbsp; Datum: __________",
        "intro": (
            "Schreib deine Vermutung in den Kasten, <em>bevor</em> die Lehrkraft die Zelle "
            "ausführt, die sie beantwortet. Wörter und Regelnummern erklärt das Regelblatt."
        ),
        "predict": "Zuerst vorhersagen",
        "predict_marker": "**Zuerst vorhersagen:**",
        "extension": "*Erweiterung*",
        "what_happened": "Was passiert ist: ",
        "build_log": "Bauprotokoll",
        "build_log_intro": "Eine Zeile für jedes Kraftwerk, das du baust.",
        "build_log_columns": ("Zug", "Kraftwerk", "warum dieses?", "mein LF danach"),
        "build_log_choice": "fossil / erneuerbar",
        "debrief": "Nachbesprechung",
        "exit_ticket": "Ausgangskarte",
        "exit_tickets": {
            "00": "In einem Satz: Wie kann ein Spiel so enden, dass alle verlieren?",
            "02": (
                "Nenne ein Gebäude, das du gebaut hast, und sag, ob es dir, dem Tisch oder "
                "beiden geholfen hat."
            ),
        },
        "debrief_questions": {
            "00": [
                "Wer hat das Bot-Spiel gewonnen, und hatte diese Person die meisten Siegpunkte?",
                (
                    "Wo im Fußabdruck-Diagramm kommt der GF in einen neuen Bereich? Was ändert "
                    "sich dann?"
                ),
            ],
            "02": [
                (
                    "Schau in dein Bauprotokoll: Wann hast du fossil gewählt, wann erneuerbar, "
                    "und warum?"
                ),
                (
                    "Hat an deinem Tisch jemand für Verschmutzung bezahlt, die er nicht "
                    "verursacht hat? Woran hast du das erkannt?"
                ),
                (
                    "Wenn du noch einmal spielen würdest: Was würdest du anders machen — und "
                    "würden die anderen es auch?"
                ),
            ],
        },
        "rules_title": "Regelblatt und Glossar",
        "plan_title": "Lektion A: spielen und sehen (50 Minuten)",
        "footer": (
            "energies — inoffizielles Unterrichtsmaterial; CATAN ist eine Marke ihrer Inhaber. "
            "Gebaut aus {source} von docs/build_worksheets.py"
        ),
    },
    "zh-Hant": {
        "worksheet": "學習單",
        "name_line": "姓名：______________________ &nbsp; 組別：______ &nbsp; 日期：__________",
        "intro": "在老師執行回答問題的儲存格<em>之前</em>，先把你的猜測寫在框裡。詞彙和規則號碼請看規則說明。",
        "predict": "先預測",
        "predict_marker": "**先預測：**",
        "extension": "*延伸*",
        "what_happened": "實際結果：",
        "build_log": "建造紀錄",
        "build_log_intro": "你每蓋一座電廠就寫一行。",
        "build_log_columns": ("回合", "電廠", "為什麼選這種？", "之後我的 LF"),
        "build_log_choice": "棕色 / 綠色",
        "debrief": "討論",
        "exit_ticket": "出場券",
        "exit_tickets": {
            "00": "用一句話說明：一場遊戲怎麼會以所有人都輸收場？",
            "02": "說出一個你蓋的建築，並說明它幫助了你、全桌，還是兩者都有。",
        },
        "debrief_questions": {
            "00": [
                "誰贏了這場機器人遊戲？他的勝利分數是最多的嗎？",
                "在污染值圖表上，GF 在哪裡進入新的區間？那時有什麼改變？",
            ],
            "02": [
                "看看你的建造紀錄：你什麼時候選棕色電廠，什麼時候選綠色電廠，為什麼？",
                "你們這一桌有沒有人為不是自己造成的污染付出代價？你是怎麼看出來的？",
                "如果再玩一次，你會怎麼做得不一樣——其他人也會嗎？",
            ],
        },
        "rules_title": "規則說明與詞彙表",
        "plan_title": "第 A 課：動手玩、親眼看（50 分鐘）",
        "footer": (
            "energies — 非官方教學工具；CATAN 是其所有者的商標。"
            "由 docs/build_worksheets.py 從 {source} 產生"
        ),
    },
    "be": {
        "worksheet": "Працоўны аркуш",
        "name_line": "Імя: ______________________ &nbsp; Група: ______ &nbsp; Дата: __________",
        "intro": (
            "Запішы сваю здагадку ў рамку <em>перад тым</em>, як настаўнік выканае ячэйку, якая "
            "на яе адказвае. Словы і нумары правілаў тлумачацца ў правілах."
        ),
        "predict": "Спачатку прадкажы",
        "predict_marker": "**Спачатку прадкажы:**",
        "extension": "*дадатковае*",
        "what_happened": "Што адбылося: ",
        "build_log": "Журнал будаўніцтва",
        "build_log_intro": "Адзін радок на кожную электрастанцыю, якую ты будуеш.",
        "build_log_columns": ("ход", "электрастанцыя", "чаму менавіта гэтая?", "мой LF пасьля"),
        "build_log_choice": "выкапнёвая / аднаўляльная",
        "debrief": "Абмеркаваньне",
        "exit_ticket": "Выхадны білет",
        "exit_tickets": {
            "00": "Адным сказам: як гульня можа скончыцца тым, што прайграюць усе?",
            "02": (
                "Назаві адзін будынак, які ты пабудаваў(-ла), і скажы, ці дапамог ён табе, "
                "сталу або абодвум."
            ),
        },
        "debrief_questions": {
            "00": [
                "Хто выйграў гульню ботаў, і ці было ў яго найбольш пунктаў перамогі?",
                "Дзе на графіку стану выкідаў GF уваходзіць у новую паласу? Што тады зьмяняецца?",
            ],
            "02": [
                (
                    "Паглядзі ў свой журнал будаўніцтва: калі ты выбіраў(-ла) выкапнёвую, калі "
                    "аднаўляльную, і чаму?"
                ),
                (
                    "Ці плаціў хто-небудзь за вашым сталом за забруджваньне, якога ён не "
                    "рабіў? Як ты гэта заўважыў(-ла)?"
                ),
                (
                    "Калі б ты гуляў(-ла) яшчэ раз, што б ты зрабіў(-ла) інакш — і ці зрабілі б "
                    "так іншыя?"
                ),
            ],
        },
        "rules_title": "Правілы і слоўнік",
        "plan_title": "Лекцыя A: гуляем і бачым (50 хвілін)",
        "footer": (
            "energies — неафіцыйны навучальны набор; CATAN — гандлёвая марка яе ўладальнікаў. "
            "Зроблена з {source} праграмай docs/build_worksheets.py"
        ),
    },
}

# German and Belarusian words are longer than English ones: a smaller type keeps the aid on one
# page, as the English one is.
COMPACT = """
<style>
body { font-size: 8.7pt; line-height: 1.25; }
table { font-size: 8.3pt; }
h2 { margin-top: 1.5mm; }
</style>
"""

AID = {
    "de": {
        "title": "Spielhilfe",
        "style": COMPACT,
        "footer": WORKSHEET["de"]["footer"],
        "events": {
            "climate_conference": "Klimakonferenz",
            "environmental_pollution": "Umweltverschmutzung",
            "air_pollution": "Luftverschmutzung",
            "production_increase": "Produktionssteigerung",
            "rain_and_flooding": "Regen und Überschwemmung",
        },
        "resources": {
            "lumber": "Holz",
            "brick": "Lehm",
            "fiber": "Faser",
            "food": "Nahrung",
            "steel": "Stahl",
            "science": "Wissenschaft",
        },
        "builds": (
            "Straße",
            "Siedlung",
            "Stadt (ersetzt deine Siedlung)",
            "fossiles Kraftwerk",
            "erneuerbares Kraftwerk",
            "Entwicklungskarte",
        ),
        "energy_amount": "{n} Energie",
        "energy_uses": (
            "eine beliebige Gefahr entfernen",
            "eines deiner fossilen Kraftwerke abreißen (LF {lf}), höchstens {per_turn} pro Zug",
            "dein Lager bauen: bei einer 7 bis zu {keep} Karten behalten (einmal pro Spiel)",
            "1 Rohstoff- oder Wissenschaftskarte aus dem Vorrat nehmen",
        ),
        "or": " oder ",
        "body": """
<h1>Spielhilfe · CATAN: New Energies, das kurze Klassenspiel</h1>
<p class="lead"><code>RuleSet.classroom()</code> des Kits: die veröffentlichten Regeln und der
veröffentlichte Beutel ({discs} braune Scheiben, Regel 1) in einem Wettlauf auf {victory_points} VP
(Regel 14.1), mit Ereignisreihen aus {spaces} Plätzen (Regel 6.3) und Scheibenstufen, die früher
mehr Scheiben ziehen (Regel 4.3, Tabelle unten). Regelnummern verweisen auf das Regelblatt.</p>
<div class="columns">
<section><h2>Ein Zug (Regel 5)</h2>
<ol>
<li><strong>Ereignisse</strong> (Regel 6): Scheiben aus dem Beutel ziehen — wie viele, entscheidet
der GF (Tabelle unten). Eine Scheibe füllt einen Platz ihrer Reihe; eine volle Reihe löst ihr
Ereignis aus (Regel 6.2).</li>
<li><strong>Ertrag</strong> (Regel 8): zwei Würfel werfen. Jede Siedlung an einem Feld mit dieser
Zahl bekommt 1 Karte davon, jede Stadt 1 Karte <em>und</em> 1 Wissenschaft; ein Kraftwerk auf
diesem Feld, dessen Gebäude Ertrag bekam, gibt seinem Besitzer 1 Energie (Regel 8.3; höchstens
{energy_cap} halten, Regel 8.4). Eine Gefahr oder der Umweltinspektor stoppt ein Feld oder ein
Gebäude (Regeln 8.1, 8.5).<br>
<strong>Eine 7</strong> (Regel 9): niemand bekommt Ertrag; mehr als {discard_threshold} Karten:
die Hälfte abwerfen; den Umweltinspektor versetzen und 1 Karte stehlen.</li>
<li><strong>Aktionen</strong> (Regeln 10–12), in beliebiger Reihenfolge: bauen, handeln, Energie
einsetzen. Höchstens {plants_per_turn} Kraftwerk pro Zug (Regel 10.3); {dev_cards_per_turn}
Entwicklungskarte pro Zug (Regel 5.4).</li>
</ol></section>
<section><h2>Kosten (Regel 10)</h2>
<table><tr><th>Bau</th><th>Kosten</th><th>LF</th></tr>{build_rows}</table>
<p>Ein Kraftwerk steht auf einem Landfeld neben deiner Siedlung (1 Kraftwerk) oder Stadt (bis zu
{city_plant_slots}) (Regel 10.2). Ein erneuerbares Kraftwerk legt eine grüne Scheibe in den
Beutel (Regel 10.4).</p>
</section>
<section><h2>Energie (Regel 11)</h2>
<table>{energy_rows}</table></section>
<section><h2>Handel (Regel 12)</h2>
<p>Jeder Tausch mit dem aktiven Spieler (Regel 12.1). Mit dem Vorrat: {bank_rate} gleiche
Rohstoffe → 1; {science_rate} Wissenschaft → 1 Rohstoff; {energy_card_rate} Energie → 1 Karte
(Regel 12.2); ein Hafen {generic_harbor_rate}:1 oder {special_harbor_rate}:1 (Regel 12.3).</p>
</section>
<section><h2>LF und GF (Regel 4)</h2>
<p><strong>LF</strong> (Lokaler Fußabdruck) = {lf_town} × Siedlungen + {lf_city} × Städte +
fossile Kraftwerke − erneuerbare Kraftwerke (Regel 4.1). <strong>GF</strong> (Globaler
Fußabdruck) = alle LF zusammen, von 0 bis {gf_max} (Regel 4.2); er beginnt bei {start_gf}
(Regel 3.5).</p>
<table><tr><th>GF</th>{band_row}</tr><tr><th>gezogene Scheiben</th>{draw_row}</tr></table>
<p class="rule">Regel 4.3 (4 Spieler). Auch ein sehr niedriger GF zieht mehr Scheiben: Dann liegen
im Beutel vor allem grüne, belohnende Scheiben.</p></section>
<section><h2>Was dein LF bewirkt</h2>
<ul>
<li><strong>Höchster LF:</strong> wirft bei einer Klimakonferenz eine Karte ab (7.1), legt bei
Luftverschmutzung eine Gefahr auf die eigene Stadt (7.3), darf bei einer Produktionssteigerung
ein kostenloses fossiles Kraftwerk bauen (7.4).</li>
<li><strong>Niedrigster LF:</strong> nimmt bei einer Klimakonferenz eine Karte (7.1), zieht bei
Staatlicher Förderung eine Entwicklungskarte (7.7).</li>
<li><strong>Meiste erneuerbare Kraftwerke:</strong> nehmen bei Nachhaltiger Produktion eine Karte
(7.6).</li>
<li><strong>Alle:</strong> Regen und Überschwemmung legt eine Gefahr auf eines deiner Gebäude
(7.5); Umweltverschmutzung legt Gefahren auf Felder (7.2).</li>
</ul></section>
<section><h2>Die zwei Enden (Regel 14)</h2>
<ol>
<li><strong>{victory_points} VP</strong> (Siegpunkte) im eigenen Zug: Du gewinnst sofort (14.1).
VP: Siedlung {town_vp}, Stadt {city_vp}, Siegpunktkarte {vp_card_vp}, Längste Handelsstraße
{longest_road_vp}, Aktiver Umweltschützer {environmentalist_vp} (13.8).</li>
<li><strong>Leerer Beutel:</strong> Eine Scheibe muss gezogen werden, und der Beutel ist leer
(14.2). Nur Spieler mit <strong>mehr erneuerbaren als fossilen Kraftwerken</strong> können
gewinnen; der höchste Wert (erneuerbar − fossil) gewinnt, bei Gleichstand die VP. Erfüllt das
niemand: <strong>Alle verlieren</strong>.</li>
</ol></section>
</div>""",
    },
    "zh-Hant": {
        "title": "玩家速查表",
        "footer": WORKSHEET["zh-Hant"]["footer"],
        "events": {
            "climate_conference": "氣候會議",
            "environmental_pollution": "環境污染",
            "air_pollution": "空氣污染",
            "production_increase": "增產",
            "rain_and_flooding": "暴雨與洪水",
        },
        "resources": {
            "lumber": "木材",
            "brick": "磚塊",
            "fiber": "纖維",
            "food": "糧食",
            "steel": "鋼鐵",
            "science": "科學",
        },
        "builds": (
            "道路",
            "村莊",
            "科技城（取代你的村莊）",
            "棕色電廠",
            "綠色電廠",
            "發展卡",
        ),
        "energy_amount": "{n} 能源",
        "energy_uses": (
            "移除任意一個環境損害標記",
            "拆除你的一座棕色電廠（LF {lf}），每回合最多 {per_turn} 次",
            "蓋你的倉庫：擲出 7 時最多保留 {keep} 張牌（每場遊戲一次）",
            "從供應區拿 1 張資源卡或科學卡",
        ),
        "or": " 或 ",
        "body": """
<h1>玩家速查表 · 《卡坦島：新能源》課堂短版遊戲</h1>
<p class="lead">本工具的 <code>RuleSet.classroom()</code>：已出版的規則和袋子（棕色圓片：{discs}，規則 1），
先到 {victory_points} VP 的競賽（規則 14.1），事件列為 {spaces} 格（規則 6.3），圓片級距更早多抽圓片（規則 4.3，見下表）。
規則號碼對應規則說明。</p>
<div class="columns">
<section><h2>一個回合（規則 5）</h2>
<ol>
<li><strong>事件</strong>（規則 6）：從袋子抽圓片——抽幾個由 GF 決定（見下表）。圓片放進它那一列的一格；一列放滿就觸發
該事件（規則 6.2）。</li>
<li><strong>生產</strong>（規則 8）：擲兩顆骰子。擲出數字的板塊旁邊，每個村莊得到 1 張該資源卡，每個科技城得到 1 張
<em>和</em> 1 張科學卡；該板塊上的電廠，如果它的建築有得到生產，就給擁有者 1 個能源（規則 8.3；最多持有
{energy_cap} 個，規則 8.4）。環境損害標記或環保督察會讓板塊或建築停止生產（規則 8.1、8.5）。<br>
<strong>擲出 7</strong>（規則 9）：沒有人生產；手牌超過 {discard_threshold} 張的人丟掉一半；移動環保督察並偷 1 張牌。</li>
<li><strong>行動</strong>（規則 10–12），順序不限：建造、交易、使用能源。每回合最多 {plants_per_turn} 座電廠（規則 10.3）；
每回合 {dev_cards_per_turn} 張發展卡（規則 5.4）。</li>
</ol></section>
<section><h2>花費（規則 10）</h2>
<table><tr><th>建造</th><th>花費</th><th>LF</th></tr>{build_rows}</table>
<p>電廠蓋在你的村莊（1 座）或科技城（最多 {city_plant_slots} 座）旁邊的陸地板塊上（規則 10.2）。綠色電廠會放一個綠色圓片
到袋子裡（規則 10.4）。</p>
</section>
<section><h2>能源（規則 11）</h2>
<table>{energy_rows}</table></section>
<section><h2>交易（規則 12）</h2>
<p>和目前回合的玩家做任何交易（規則 12.1）。和供應區：{bank_rate} 張同種資源 → 1 張；{science_rate} 張科學卡 → 1 張資源；
{energy_card_rate} 個能源 → 1 張牌（規則 12.2）；港口 {generic_harbor_rate}:1 或 {special_harbor_rate}:1（規則 12.3）。</p>
</section>
<section><h2>LF 和 GF（規則 4）</h2>
<p><strong>LF</strong>（個人污染值）= {lf_town} × 村莊 + {lf_city} × 科技城 + 棕色電廠 − 綠色電廠（規則 4.1）。
<strong>GF</strong>（全球污染值）= 所有 LF 的總和，從 0 到 {gf_max}（規則 4.2）；開局是 {start_gf}（規則 3.5）。</p>
<table><tr><th>GF</th>{band_row}</tr><tr><th>抽出的圓片</th>{draw_row}</tr></table>
<p class="rule">規則 4.3（4 位玩家）。GF 非常低時也會抽比較多：那時袋子裡大多是綠色的獎勵圓片。</p></section>
<section><h2>你的 LF 會帶來什麼</h2>
<ul>
<li><strong>LF 最高：</strong>氣候會議時丟一張牌（7.1），空氣污染時在自己的科技城放環境損害標記（7.3），增產時可以免費
蓋一座棕色電廠（7.4）。</li>
<li><strong>LF 最低：</strong>氣候會議時拿一張牌（7.1），政府補助時抽一張發展卡（7.7）。</li>
<li><strong>綠色電廠最多：</strong>永續生產時拿一張牌（7.6）。</li>
<li><strong>每個人：</strong>暴雨與洪水在你的一座建築上放環境損害標記（7.5）；環境污染把標記放在板塊上（7.2）。</li>
</ul></section>
<section><h2>兩種結局（規則 14）</h2>
<ol>
<li>在自己的回合達到 <strong>{victory_points} VP</strong>（勝利分數）：立即獲勝（14.1）。VP：村莊 {town_vp}、科技城
{city_vp}、勝利分數卡 {vp_card_vp}、最長道路 {longest_road_vp}、積極環保人士 {environmentalist_vp}（13.8）。</li>
<li><strong>空袋子：</strong>需要抽圓片而袋子已空（14.2）。只有 <strong>綠色電廠比棕色電廠多</strong> 的玩家可以獲勝；
（綠色 − 棕色）最高者獲勝，平手比 VP。沒有人符合條件：<strong>全體皆輸</strong>。</li>
</ol></section>
</div>""",
    },
    "be": {
        "title": "Памятка гульца",
        "style": COMPACT,
        "cost_item": "{name} {n}",  # "сталь 3": no numeral agreement to get wrong
        "footer": WORKSHEET["be"]["footer"],
        "events": {
            "climate_conference": "Кліматычная канфэрэнцыя",
            "environmental_pollution": "Забруджваньне навакольля",
            "air_pollution": "Забруджваньне паветра",
            "production_increase": "Рост вытворчасьці",
            "rain_and_flooding": "Дождж і паводка",
        },
        "resources": {
            "lumber": "драўніна",
            "brick": "цэгла",
            "fiber": "валакно",
            "food": "ежа",
            "steel": "сталь",
            "science": "навука",
        },
        "builds": (
            "дарога",
            "мястэчка",
            "горад (замяняе тваё мястэчка)",
            "выкапнёвая электрастанцыя",
            "аднаўляльная электрастанцыя",
            "карта разьвіцьця",
        ),
        "energy_amount": "энэргія: {n}",
        "energy_uses": (
            "прыбраць любы адзін знак шкоды",
            "знесьці адну сваю выкапнёвую электрастанцыю (LF {lf}), не больш за {per_turn} за ход",
            "пабудаваць свой склад: пры 7 трымаць да {keep} карт (раз за гульню)",
            "узяць з запасу 1 карту рэсурсу або навукі",
        ),
        "or": " або ",
        "body": """
<h1>Памятка гульца · CATAN: New Energies, кароткая клясавая гульня</h1>
<p class="lead"><code>RuleSet.classroom()</code> набору: апублікаваныя правілы і мяшок
(карычневыя жэтоны: {discs}, правіла 1) у гонцы да {victory_points} VP (правіла 14.1), з шэрагамі
падзеяў з {spaces} месцаў (правіла 6.3) і ўзроўнямі, што раней цягнуць больш жэтонаў (правіла 4.3,
табліца ніжэй). Нумары правілаў адсылаюць да правілаў.</p>
<div class="columns">
<section><h2>Ход (правіла 5)</h2>
<ol>
<li><strong>Падзеі</strong> (правіла 6): выцягнуць жэтоны з мяшка — колькі, вырашае GF (табліца
ніжэй). Жэтон займае месца ў сваім шэрагу; запоўнены шэраг выклікае сваю падзею (правіла 6.2).</li>
<li><strong>Вытворчасьць</strong> (правіла 8): кінуць два кубікі. Кожнае мястэчка каля поля з
гэтым лікам атрымлівае 1 карту ягонага рэсурсу, кожны горад — 1 карту <em>і</em> 1 навуку;
электрастанцыя на гэтым полі, чый будынак атрымаў ураджай, дае ўладальніку 1 энэргію (правіла 8.3;
трымаць не больш за {energy_cap}, правіла 8.4). Знак шкоды або Экаінспэктар спыняюць поле або
будынак (правілы 8.1, 8.5).<br>
<strong>Выпала 7</strong> (правіла 9): ніхто нічога не атрымлівае; больш за {discard_threshold}
карт — скінуць палову; перасунуць Экаінспэктара і скрасьці 1 карту.</li>
<li><strong>Дзеяньні</strong> (правілы 10–12), у любым парадку: будаваць, гандляваць,
выкарыстоўваць энэргію. Не больш за {plants_per_turn} электрастанцыю за ход (правіла 10.3);
{dev_cards_per_turn} карта разьвіцьця за ход (правіла 5.4).</li>
</ol></section>
<section><h2>Кошты (правіла 10)</h2>
<table><tr><th>што будуем</th><th>кошт</th><th>LF</th></tr>{build_rows}</table>
<p>Электрастанцыя стаіць на полі сушы каля твайго мястэчка (1 электрастанцыя) або горада (да
{city_plant_slots}) (правіла 10.2). Аднаўляльная электрастанцыя кладзе зялёны жэтон у мяшок
(правіла 10.4).</p>
</section>
<section><h2>Энэргія (правіла 11)</h2>
<table>{energy_rows}</table></section>
<section><h2>Гандаль (правіла 12)</h2>
<p>Любая здзелка з актыўным гульцом (правіла 12.1). З запасам: {bank_rate} аднолькавыя рэсурсы →
1; навука {science_rate} → 1 рэсурс; энэргія {energy_card_rate} → 1 карта (правіла 12.2); порт
{generic_harbor_rate}:1 або {special_harbor_rate}:1 (правіла 12.3).</p>
</section>
<section><h2>LF і GF (правіла 4)</h2>
<p><strong>LF</strong> (лякальны стан выкідаў) = {lf_town} × мястэчкі + {lf_city} × гарады +
выкапнёвыя электрастанцыі − аднаўляльныя электрастанцыі (правіла 4.1). <strong>GF</strong>
(глябальны стан выкідаў) = усе LF разам, ад 0 да {gf_max} (правіла 4.2); на пачатку {start_gf}
(правіла 3.5).</p>
<table><tr><th>GF</th>{band_row}</tr><tr><th>выцягнута жэтонаў</th>{draw_row}</tr></table>
<p class="rule">Правіла 4.3 (4 гульцы). Вельмі нізкі GF таксама цягне больш жэтонаў: тады ў
мяшку пераважна зялёныя, узнагародныя жэтоны.</p></section>
<section><h2>Што робіць твой LF</h2>
<ul>
<li><strong>Найвышэйшы LF:</strong> скідае карту на Кліматычнай канфэрэнцыі (7.1), кладзе знак
шкоды на свой горад пры Забруджваньні паветра (7.3), можа пабудаваць бясплатную выкапнёвую
электрастанцыю пры Росьце вытворчасьці (7.4).</li>
<li><strong>Найніжэйшы LF:</strong> бярэ карту на Кліматычнай канфэрэнцыі (7.1), цягне карту
разьвіцьця пры Дзяржаўным фінансаваньні (7.7).</li>
<li><strong>Найбольш аднаўляльных электрастанцый:</strong> бяруць карту пры Устойлівай
вытворчасьці (7.6).</li>
<li><strong>Усе:</strong> Дождж і паводка кладзе знак шкоды на адзін з тваіх будынкаў (7.5);
Забруджваньне навакольля кладзе знакі на палі (7.2).</li>
</ul></section>
<section><h2>Два канцы гульні (правіла 14)</h2>
<ol>
<li><strong>{victory_points} VP</strong> (пунктаў перамогі) у свой уласны ход: ты адразу
выйграеш (14.1). VP: мястэчка {town_vp}, горад {city_vp}, карта пункту перамогі {vp_card_vp},
Найдаўжэйшая дарога {longest_road_vp}, Актыўны эколяг {environmentalist_vp} (13.8).</li>
<li><strong>Пусты мяшок:</strong> трэба выцягнуць жэтон, а мяшок пусты (14.2). Выйграць могуць
толькі гульцы, у якіх <strong>аднаўляльных электрастанцый больш, чым выкапнёвых</strong>; выйграе
найбольшая розьніца (аднаўляльныя − выкапнёвыя), пры роўнасьці — VP. Калі такіх няма:
<strong>прайграюць усе</strong>.</li>
</ol></section>
</div>""",
    },
}
