from vitrine.cli import main

main()
