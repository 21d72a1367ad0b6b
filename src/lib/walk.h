/* walk.h - placeholder */
