# The compiled extension's interface (``_plausibility_c.pyx``); its reference: ``_plausibility``.
from collections.abc import Callable, Container

def bind(char_class: Callable[[str], tuple[str, str]], word_inner: Container[str],
         rare_letters: Container[str], non_ascii_words: Callable[[str], list[str]],
         rare_cap: float) -> None: ...
def implausibility(text: str, max_words: int) -> tuple[float, int]: ...
