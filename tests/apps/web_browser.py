#!/usr/bin/env python3
"""The web board in a real browser: Debian's chromium, headless, driven by selenium through
Debian's chromedriver. Plays moves by clicking in chess (a promotion included), in cam (missing cells) and in irwell
(four seats, bots on three of them), replays a recorded arena game, plots a run's progress, and
saves a screenshot of each game. Usage: web_browser.py FAIRYZERO OUT_DIR (exit 77, a skip, without chromium)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

FAIRYZERO, OUT = sys.argv[1], sys.argv[2]
try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("SKIP: python3-selenium is not installed")
    sys.exit(77)
if not shutil.which("chromium") or not shutil.which("chromedriver"):
    print("SKIP: chromium or chromedriver is not installed")
    sys.exit(77)


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def start_server(runs):
    server = subprocess.Popen([FAIRYZERO, "serve", "--port", "0", "--runs", runs],
                              stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        server.kill()
        fail("serve did not say where it listens: " + line)
    return server, "http://127.0.0.1:%s/" % match.group(1)


def browser():
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,1050"):
        options.add_argument(flag)
    options.binary_location = shutil.which("chromium")
    service = Service(executable_path=shutil.which("chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def wait_for(driver, condition, what, seconds=60):
    try:
        return WebDriverWait(driver, seconds).until(lambda d: condition(d))
    except Exception:
        fail("timed out waiting for " + what + "; page error: " +
             driver.find_element(By.ID, "error").text)


def move_count(driver):
    return len(driver.find_elements(By.CSS_SELECTOR, "#moves li"))


def click_cell(driver, cell):
    # The last element of a cell is its transparent hit area, above the man.
    hits = driver.find_elements(By.CSS_SELECTOR, '#board rect[data-cell="%s"]' % cell)
    if not hits:
        fail("no cell " + cell + " on the board")
    hits[-1].click()


def new_game(driver, variant, seats, fen=""):
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    wait_for(driver, lambda d: d.find_element(By.ID, "seat-choices").get_attribute("data-variant") == variant,
             variant + "'s seat choices")
    for i, player in enumerate(seats):
        Select(driver.find_element(By.ID, "seat-%d" % i)).select_by_value(player)
    driver.find_element(By.ID, "start-fen").clear()
    driver.find_element(By.ID, "start-fen").send_keys(fen)
    driver.find_element(By.ID, "bot-visits").clear()
    driver.find_element(By.ID, "bot-visits").send_keys("32")
    # The new game's id, not only its variant: under load the previous game (the page's first,
    # maybe with bots) can still be showing when the check runs.
    before = driver.execute_script("return play.id")
    driver.find_element(By.ID, "new").click()
    wait_for(driver, lambda d: d.execute_script("return play.id") != before
             and d.execute_script("return play.variant && play.variant.name") == variant
             and move_count(d) == 0, "a new " + variant + " game")


def play_first_legal_move(driver):
    move = driver.execute_script(
        "return play.state.legal_moves.find(m => m.from && m.to && m.promotion === undefined)")
    click_cell(driver, move["from"])
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board circle.target-dot"),
             "the legal targets of " + move["from"])
    click_cell(driver, move["to"])
    return move["text"]


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as runs:
        subprocess.run([FAIRYZERO, "arena", "chess", "uniform", "material", "--games", "2",
                        "--visits", "8", "--max-plies", "40", "--out", os.path.join(runs, "match")],
                       check=True, stdout=subprocess.DEVNULL)
        # A run's progress tables, as train writes them (the values are made up).
        run = os.path.join(runs, "run")
        os.makedirs(run)
        shutil.copy(os.path.join(os.path.dirname(__file__), "../../configs/variants/gardner.toml"),
                    os.path.join(run, "variant.toml"))
        with open(os.path.join(run, "training.csv"), "w") as f:
            f.write("generation,step,policy_loss,value_loss\n0,10,2.2,0.9\n1,20,2.0,0.8\n2,30,1.9,0.7\n")
        server, url = start_server(runs)
        driver = None
        try:
            driver = browser()
            driver.get(url)
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"), "the board")

            # Chess: e2-e4 by two clicks, then a person's reply.
            new_game(driver, "chess", ["human", "human"])
            click_cell(driver, "e2")
            wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board circle.target-dot")) == 2,
                     "e2's 2 targets")
            click_cell(driver, "e4")
            wait_for(driver, lambda d: move_count(d) == 1, "e2e4 in the move list")
            click_cell(driver, "e7")
            click_cell(driver, "e5")
            wait_for(driver, lambda d: move_count(d) == 2, "e7e5 in the move list")
            if driver.find_element(By.CSS_SELECTOR, "#moves li").text != "e2e4":
                fail("the first move is not e2e4")
            driver.save_screenshot(os.path.join(OUT, "web-chess.png"))

            # A promotion asks which man: the choices are the variant's, the queen is played.
            new_game(driver, "chess", ["human", "human"], "7k/P7/8/8/8/8/8/K7 w - - 0 1")
            click_cell(driver, "a7")
            click_cell(driver, "a8")
            choices = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#promotion button"),
                               "the promotion choices")
            names = sorted(b.text for b in choices)
            if names != ["bishop", "knight", "queen", "rook"]:
                fail("promotion choices: %s" % names)
            next(b for b in choices if b.text == "queen").click()
            wait_for(driver, lambda d: move_count(d) == 1, "a7a8q in the move list")
            if driver.find_element(By.CSS_SELECTOR, "#moves li").text != "a7a8q":
                fail("the promotion played " + driver.find_element(By.CSS_SELECTOR, "#moves li").text)

            # Cam: a board with missing cells; the material bot answers.
            new_game(driver, "cam", ["human", "material"])
            board = driver.execute_script("return play.variant.board.cells.filter(c => !c.exists).length")
            drawn = len(driver.find_elements(By.CSS_SELECTOR, "#board rect.cell"))
            cells = driver.execute_script("return play.variant.board.cells.length")
            if board == 0 or drawn != cells - board:
                fail("cam: %d missing cells, %d of %d drawn" % (board, drawn, cells))
            play_first_legal_move(driver)
            wait_for(driver, lambda d: move_count(d) == 2, "the bot's reply in cam")
            driver.save_screenshot(os.path.join(OUT, "web-cam.png"))

            # Irwell: four seats, a person and three bots, which move in turn.
            new_game(driver, "irwell", ["human", "material", "material", "material"])
            play_first_legal_move(driver)
            wait_for(driver, lambda d: move_count(d) == 4, "three bots' moves in irwell", 120)
            seats = driver.find_elements(By.CSS_SELECTOR, "#seats div")
            if len(seats) != 4:
                fail("irwell shows %d seats" % len(seats))
            driver.save_screenshot(os.path.join(OUT, "web-irwell.png"))

            # Replay: the first arena game, five plies in.
            driver.find_element(By.ID, "tab-replay").click()
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#record-game option"),
                     "the arena record's games")
            driver.find_element(By.ID, "load-replay").click()
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#replay-board svg"), "the replay board")
            for _ in range(5):
                driver.find_element(By.ID, "replay-forward").click()
            ply = driver.find_element(By.ID, "replay-ply").text
            if not ply.startswith("5 / "):
                fail("after five steps the replay shows " + ply)
            driver.save_screenshot(os.path.join(OUT, "web-replay.png"))

            # Runs: the progress tables plotted in the page, one plot a column.
            driver.find_element(By.ID, "tab-runs").click()
            Select(driver.find_element(By.ID, "run")).select_by_value("run")
            driver.find_element(By.ID, "load-run").click()
            wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#run-progress svg.plot polyline")) == 3,
                     "three plots of training.csv")
        finally:
            if driver:
                driver.quit()
            server.terminate()
            server.wait(10)
    print("web_browser: chess, cam, irwell and a replay played by clicking, a run plotted; screenshots in " + OUT)


main()
