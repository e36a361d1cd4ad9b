"""Privately learning rectangles (thesis ch. 5): RandMargins, the interior point problem."""
