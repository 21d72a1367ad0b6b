/* input.h - placeholder */
